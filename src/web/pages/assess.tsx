/** GET and POST /assess: the assessment form; a rejected domain or exposure is shown again with the reason. */
import type { AssetCatalog } from '../assets.js';
import { Layout } from '../layout.js';

export interface AssessData {
  readonly notice: string;
  readonly domain?: string;
  readonly exposure?: string;
  /** Why the last submission was refused, field by field. */
  readonly errors?: { readonly domain?: string; readonly exposure?: string; readonly form?: string };
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
          <p class="hint" id="assess-exposure-hint">The amount at stake, for your own records. It is stored and shown, never used to judge.</p>
          {errors.exposure ? <p class="error-text" id="assess-exposure-error" role="alert">{errors.exposure}</p> : null}
        </div>
        <button type="submit">Start the assessment</button>
      </form>
    </Layout>
  );
}
