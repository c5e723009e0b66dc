/** GET /docs (getDocsPage): the API reference, /openapi.json rendered by Swagger UI from our own files; its start-up script is a file too. */
import type { AssetCatalog } from '../assets.js';
import { Layout } from '../layout.js';

export function DocsPage({ assets }: { readonly assets: AssetCatalog }) {
  return (
    <Layout
      assets={assets}
      section="docs"
      title="API reference"
      description="The Sextant HTTP API: search MCP servers and tools, install instructions, trust evidence, status, the proxy and assessments."
      script={false}
      head={
        <>
          <link rel="stylesheet" href={assets.url('swagger-ui.css')} />
          <link rel="stylesheet" href={assets.url('docs.css')} />
          <script src={assets.url('swagger-ui-bundle.js')} defer />
          <script src={assets.url('docs.js')} defer />
        </>
      }
    >
      <h1>API reference</h1>
      <p>
        Every route, parameter and response of this service, from <a href="/openapi.json">/openapi.json</a>. The same functions are served to MCP clients at <code>/mcp</code>.
      </p>
      <div id="swagger-ui" data-spec="/openapi.json">
        <p class="muted">Loading the reference…</p>
      </div>
    </Layout>
  );
}
