/** An error as a page: what happened in a sentence, and where to go next. */
import type { AssetCatalog } from '../assets.js';
import { Layout } from '../layout.js';

export interface ErrorData {
  readonly status: number;
  readonly title: string;
  readonly detail: string;
  readonly requestId: string;
  /** What was wrong with each part of the request, for a 400. */
  readonly errors?: ReadonlyArray<{ readonly location: string; readonly message: string }>;
}

export function ErrorPage({ assets, data }: { readonly assets: AssetCatalog; readonly data: ErrorData }) {
  return (
    <Layout assets={assets} section="none" title={data.title} description={data.detail}>
      <section class="error-page" aria-labelledby="error-title">
        <p class="error-status">Error {data.status}</p>
        <h1 id="error-title">{data.title}</h1>
        <p>{data.detail}</p>
        {data.errors && data.errors.length > 0 ? (
          <ul>
            {data.errors.map((e) => (
              <li><code>{e.location}</code> {e.message}</li>
            ))}
          </ul>
        ) : null}
        <p>
          Try the <a href="/">home page</a> or <a href="/servers">search the servers</a>.
        </p>
        <p class="muted">Request id: <code>{data.requestId}</code></p>
      </section>
    </Layout>
  );
}
