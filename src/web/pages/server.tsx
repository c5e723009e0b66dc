/** GET /servers/{id} (getServerPage): everything the API knows of one server, on one page. */
import type { CategoryList, InstallInstructions, Server, StatusReport, Tool, TrustReport } from '../../types.js';
import type { AssetCatalog } from '../assets.js';
import { ExternalLink, QualityFacts, authLabel, formatDate, formatDateTime, toolCountLabel, transportLabel } from '../components.js';
import { Layout } from '../layout.js';
import { StatusSection, TrustSection } from './server-evidence.js';
import { InstallSection } from './server-install.js';
import { ToolChecksSection } from './server-tool-checks.js';
import { ToolsSection } from './server-tools.js';
import { TryItSection } from './try-it.js';

export interface ServerData {
  readonly server: Server;
  readonly tools: ReadonlyMap<string, Tool>;
  readonly install: InstallInstructions;
  readonly trust: TrustReport;
  readonly status: StatusReport;
  readonly categories: CategoryList;
}

/** The reverse-DNS namespace a name was published under (`io.github.acme` of `io.github.acme/weather`). */
function publisherOf(name: string): string | null {
  const slash = name.indexOf('/');
  return slash > 0 ? name.slice(0, slash) : null;
}

export function ServerPageView({ assets, data }: { readonly assets: AssetCatalog; readonly data: ServerData }) {
  const { server } = data;
  const title = server.title ?? server.name;
  const names = new Map(data.categories.items.map((c) => [c.slug, c.name]));
  const description = server.description || `${title}: an MCP server in the Sextant registry.`;
  const hasTry = server.remotes.some((r) => r.transport === 'streamable-http');
  return (
    <Layout assets={assets} section="servers" title={title} description={description.slice(0, 300)}>
      <nav aria-label="Breadcrumb" class="crumbs">
        <a href="/servers">Servers</a> <span aria-hidden="true">/</span> <span>{title}</span>
      </nav>
      <header class="server-head">
        <h1>{title}</h1>
        <p class="card-name"><code>{server.name}</code>{server.version ? <span class="muted"> · version {server.version}</span> : null}</p>
        <p class="lead">{server.description || 'No description.'}</p>
        <ul class="facts" aria-label="Facts">
          <li>{toolCountLabel(server.toolCount)}</li>
          <li>{server.transports.map(transportLabel).join(', ') || 'No transport listed'}</li>
          <li>{authLabel(server.authentication)}</li>
          {server.license ? <li>Licence: {server.license}</li> : null}
          <QualityFacts flags={server.quality.flags} />
        </ul>
        <FactsList server={server} categoryNames={names} />
        <p class="actions">
          <a class="button secondary" href={`/servers?compare=${encodeURIComponent(server.id)}`}>Add to compare</a>
          <a class="button secondary" href={server.links.self}>This server as JSON</a>
        </p>
        <nav aria-label="On this page" class="toc">
          <a href="#install">Install</a>
          <a href="#tool-checks">Tool checks</a>
          {hasTry ? <a href="#try">Try it</a> : null}
          <a href="#tools">Tools</a>
          <a href="#connect">Packages and endpoints</a>
          <a href="#trust">Trust</a>
          <a href="#status">Status</a>
          <a href="#sources">Sources</a>
        </nav>
      </header>
      <InstallSection install={data.install} />
      <ToolChecksSection server={server} trust={data.trust} details={data.tools} />
      <TryItSection serverId={server.id} remotes={server.remotes} />
      <ToolsSection tools={server.tools} toolCount={server.toolCount} remote={server.remotes.length > 0} details={data.tools} />
      <ConnectSection server={server} />
      <TrustSection trust={data.trust} />
      <StatusSection status={data.status} />
      <section id="sources" aria-labelledby="sources-title" class="panel">
        <h2 id="sources-title">Sources</h2>
        <ul class="plain">
          {server.sources.map((source) => (
            <li><strong>{source.source}</strong> <code>{source.key}</code>, ingested {formatDateTime(source.ingestedAt)}</li>
          ))}
        </ul>
      </section>
    </Layout>
  );
}

function ConnectSection({ server }: { readonly server: Server }) {
  return (
    <section id="connect" aria-labelledby="connect-title" class="panel">
      <h2 id="connect-title">Packages and endpoints</h2>
      {server.packages.length === 0 && server.remotes.length === 0 ? <p>Neither packages nor remote endpoints are listed.</p> : null}
      {server.packages.length > 0 ? (
        <table>
          <caption>Packages</caption>
          <thead><tr><th scope="col">Registry</th><th scope="col">Package</th><th scope="col">Version</th><th scope="col">Transport</th><th scope="col">Settings</th></tr></thead>
          <tbody>
            {server.packages.map((pkg) => (
              <tr>
                <td>{pkg.registryType}</td>
                <td><code>{pkg.identifier}</code></td>
                <td>{pkg.version ?? 'any'}</td>
                <td>{transportLabel(pkg.transport)}</td>
                <td>{pkg.environmentVariables.map((v) => v.name).join(', ') || 'none'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
      {server.remotes.length > 0 ? (
        <table>
          <caption>Remote endpoints</caption>
          <thead><tr><th scope="col">URL</th><th scope="col">Transport</th><th scope="col">Headers</th></tr></thead>
          <tbody>
            {server.remotes.map((remote) => (
              <tr>
                <td><code>{remote.url}</code></td>
                <td>{transportLabel(remote.transport)}</td>
                <td>{remote.headers.map((h) => `${h.name}${h.isSecret ? ' (secret)' : ''}`).join(', ') || 'none'}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </section>
  );
}

/** Publisher, links, dates and categories of a server. */
function FactsList({ server, categoryNames: names }: { readonly server: Server; readonly categoryNames: ReadonlyMap<string, string> }) {
  const publisher = publisherOf(server.name);
  return (
    <dl class="facts-list">
      {publisher ? <div><dt>Publisher</dt><dd><code>{publisher}</code></dd></div> : null}
      <div><dt>Repository</dt><dd>{server.repositoryUrl ? <ExternalLink href={server.repositoryUrl} /> : 'Not listed'}</dd></div>
      <div><dt>Website</dt><dd>{server.websiteUrl ? <ExternalLink href={server.websiteUrl} /> : 'Not listed'}</dd></div>
      <div><dt>Published</dt><dd>{formatDate(server.publishedAt)}</dd></div>
      <div><dt>Updated</dt><dd>{formatDate(server.updatedAt)}</dd></div>
      <div>
        <dt>Categories</dt>
        <dd>
          {server.categories.length === 0
            ? 'None'
            : server.categories.map((slug, i) => (
                <>
                  {i > 0 ? ', ' : ''}
                  <a href={`/servers?category=${encodeURIComponent(slug)}`}>{names.get(slug) ?? slug}</a>
                </>
              ))}
        </dd>
      </div>
    </dl>
  );
}
