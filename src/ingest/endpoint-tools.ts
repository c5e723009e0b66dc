/** Tools the status monitor read from an endpoint itself, added to its server's record. */
import type { CatalogPolicy } from '../catalog/catalog-policy.js';
import { serverRowsOf, type Store } from '../store/index.js';
import { curate } from './curation.js';
import { hashOf, materialize } from './materialize.js';
import { fitTools, isUpstreamServer, type UpstreamServer, type UpstreamTool } from './upstream.js';

/**
 * Tools an endpoint listed itself (by the status monitor) join the server's record as the
 * `monitor` source for that endpoint. Returns whether the catalog changed. Tools can bring
 * findings a `require` of the catalog policy refuses: the server is then removed.
 */
export async function attachEndpointTools(store: Store, serverId: string, url: string, tools: readonly UpstreamTool[], now: string, policy: CatalogPolicy | null = null): Promise<boolean> {
  return store.withCatalogWriter(async (writer) => {
    const name = (await writer.serverNames([serverId])).get(serverId);
    if (name === undefined) return false;
    const server: UpstreamServer = {
      source: 'monitor', key: url, name, title: null, description: '', version: null, versions: [], repositoryUrl: null, repositorySubfolder: null,
      websiteUrl: null, license: null, publishedAt: null, updatedAt: null, packages: [], remotes: [], tools: fitTools(tools), upstreamCategories: [],
      oauth: false, declaresSecrets: false,
    };
    const recordHash = hashOf([server]);
    if ((await writer.sourceHash('monitor', url)) === recordHash) return false;
    const others = ((await writer.storedSources([serverId])).get(serverId) ?? []).filter((s) => !(s.source === 'monitor' && s.key === url));
    const entry = materialize(serverId, [server, ...others.map((s) => s.normalized).filter(isUpstreamServer)], name);
    const changed = (await writer.contentHashes([serverId])).get(serverId) !== entry.contentHash;
    if (changed) {
      await writer.writeServers([{ rows: serverRowsOf(entry, now), isNew: false }]);
      // The entry's flags are its record's own; whether it is a copy the catalog says again.
      await writer.refreshDuplicates();
    }
    await writer.saveSources([{ source: 'monitor', key: url, serverId, recordHash, recordJson: JSON.stringify({ url, tools }), normalizedJson: JSON.stringify(server) }], now);
    if (changed && (await curate(writer, policy, [serverId])).removed.length > 0) await writer.refreshDuplicates();
    return changed;
  });
}
