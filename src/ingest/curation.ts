/**
 * The curation pass (src/catalog/catalog-policy.ts): removes every stored server the catalog
 * policy does not admit, with its records, inside a catalog write. Ingest runs it before it
 * commits, so a server the policy refuses is never served; a reload of the policy runs it with no
 * new input. Records of a removed server are not kept: a policy that admits it again finds it at
 * the next ingest or full sync of its source.
 */
import { decide, type CatalogPolicy } from '../catalog/catalog-policy.js';
import type { CatalogWriter, Store } from '../store/index.js';
import { saveIndexForReaders } from './reader-index.js';

export interface CurationSummary {
  /** Servers the policy admits, of those stored. */
  readonly admitted: number;
  /** Ids of the servers it removed. */
  readonly removed: readonly string[];
}

/** Within a catalog write: removes the stored servers (of `only`, when given) `policy` does not admit (none without a policy). */
export async function curate(writer: CatalogWriter, policy: CatalogPolicy | null, only?: readonly string[]): Promise<CurationSummary> {
  if (policy === null) return { admitted: await writer.countServers(), removed: [] };
  const removed: string[] = [];
  let admitted = 0;
  await writer.eachPolicySubject((rows) => {
    for (const row of rows) {
      if (decide(policy, row).admitted) admitted += 1;
      else removed.push(row.id);
    }
  }, only);
  await writer.removeServers(removed);
  await writer.removeAliasesOf(removed);
  return { admitted, removed };
}

/**
 * The curation pass on its own, in one catalog write: after a policy reload, or after a source
 * that is not ingest's (published servers) changed. Instances follow the content generation the
 * write moves; nothing moves when nothing is removed.
 */
export async function curateCatalog(store: Store, policy: CatalogPolicy | null): Promise<CurationSummary> {
  return store.withCatalogWriter(async (writer) => {
    const summary = await curate(writer, policy);
    if (summary.removed.length > 0) {
      // A copy is told by the publisher's other servers, and some of those may be gone.
      await writer.refreshDuplicates();
      await saveIndexForReaders(writer, summary.admitted);
    }
    return summary;
  });
}
