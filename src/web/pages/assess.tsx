/** GET and POST /assess: the assessment form; a rejected domain or exposure is shown again with the reason. */
import type { AssetCatalog } from '../assets.js';
import { Layout } from '../layout.js';

export interface AssessData {
  readonly notice: string;
  readonly domain?: string;
  readonly exposure?: string;
  /** Why the last submission was refused, field by field. */
  readonly errors?: { readonly domain?: string; readonly exposure?: string; readonly form?: string };
  /** The list form as it was sent, and why it was refused. */
  readonly list?: { readonly domains: string; readonly exposure: string; readonly errors: readonly string[] };
}

export function AssessPage({ assets, data }: { readonly assets: AssetCatalog; readonly data: AssessData }) {
  const errors = data.errors ?? {};
  const failed = Boolean(errors.domain ?? errors.exposure ?? errors.form);
  return (
    <Layout assets={assets} section="assess" title={failed ? 'Check the domain' : 'Assess a business’s web estate'} description="Observations of a business’s web estate (DNS, e-mail set-up, TLS, website, registration age) for credit professionals. Never a score or a decision.">
      <h1>Assess a business’s web estate</h1>
      <p class="lead">
        Give the internet domain of a business. Sextant looks at its DNS, e-mail set-up, TLS certificate, website and registration, and reports what it observed.
      </p>
      <p class="notice notice-strong" role="note">{data.notice}</p>
      {errors.form ? <p class="error-text" role="alert">{errors.form}</p> : null}
      <form class="assess-form" action="/assess" method="post" novalidate>
        <div class="field">
          <label for="assess-domain">Business domain</label>
          <input
            id="assess-domain"
            name="domain"
            type="text"
            inputmode="url"
            autocomplete="off"
            spellcheck={false}
            required
            value={data.domain ?? ''}
            placeholder="example-business.co.uk"
            aria-invalid={errors.domain ? 'true' : undefined}
            aria-describedby={errors.domain ? 'assess-domain-error assess-domain-hint' : 'assess-domain-hint'}
          />
          <p class="hint" id="assess-domain-hint">A domain name only: no https://, path, e-mail address or IP address.</p>
          {errors.domain ? <p class="error-text" id="assess-domain-error" role="alert">{errors.domain}</p> : null}
        </div>
        <div class="field">
          <label for="assess-exposure">Exposure (optional)</label>
          <input
            id="assess-exposure"
            name="exposure"
            type="text"
            inputmode="decimal"
            autocomplete="off"
            value={data.exposure ?? ''}
            aria-invalid={errors.exposure ? 'true' : undefined}
            aria-describedby={errors.exposure ? 'assess-exposure-error assess-exposure-hint' : 'assess-exposure-hint'}
          />
          <p class="hint" id="assess-exposure-hint">The amount at stake, for your own records. It is shown with the assessment to anyone who opens it (a domain’s assessments are listed by domain), and never used to judge.</p>
          {errors.exposure ? <p class="error-text" id="assess-exposure-error" role="alert">{errors.exposure}</p> : null}
        </div>
        <button type="submit">Start the assessment</button>
      </form>
      <ListForm list={data.list} />
    </Layout>
  );
}

/** Up to 100 domains at once, typed or pasted, or read from a CSV file by the page's script. */
function ListForm({ list }: { readonly list: AssessData['list'] }) {
  const errors = list?.errors ?? [];
  return (
    <section aria-labelledby="list-title" class="panel assess-list">
      <h2 id="list-title">Assess a list of domains</h2>
      {errors.length === 0 ? null : (
        <div class="error-text" role="alert" id="assess-list-error">
          <p>The list was not queued:</p>
          <ul>{errors.map((error) => <li>{error}</li>)}</ul>
        </div>
      )}
      <form class="assess-form" action="/assess/batch" method="post" novalidate>
        <div class="field">
          <label for="assess-domains">Domains, one per line</label>
          <textarea id="assess-domains" name="domains" rows={8} spellcheck={false} aria-describedby={errors.length === 0 ? 'assess-domains-hint' : 'assess-list-error assess-domains-hint'} aria-invalid={errors.length === 0 ? undefined : 'true'}>
            {list?.domains ?? ''}
          </textarea>
          <p class="hint" id="assess-domains-hint">Up to 100. A line may add its exposure after a comma (<code>firm.co.uk,25000</code>), as a spreadsheet saves CSV.</p>
        </div>
        <div class="field" data-csv-only hidden>
          <label for="assess-csv">Or read a CSV file</label>
          <input id="assess-csv" type="file" accept=".csv,.txt,text/csv,text/plain" data-fills="assess-domains" />
        </div>
        <div class="field">
          <label for="assess-list-exposure">Exposure for domains without their own (optional)</label>
          <input id="assess-list-exposure" name="exposure" type="text" inputmode="decimal" autocomplete="off" value={list?.exposure ?? ''} />
        </div>
        <button type="submit">Assess the list</button>
      </form>
    </section>
  );
}
