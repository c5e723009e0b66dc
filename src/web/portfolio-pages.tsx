/** The pages of a portfolio: the list form's submission, a batch's page and a domain's history. */
import { NOTICE, type AssessmentService } from '../assessments/assessment-service.js';
import { AppError } from '../errors.js';
import type { AssetCatalog } from './assets.js';
import { EXPOSURE_REFUSED, parseDomainList, readExposure } from './domain-list.js';
import { AssessPage } from './pages/assess.js';
import { BatchPage, HistoryPage } from './pages/portfolio.js';
import { renderPage, type PageFrame } from './render.js';
import type { AssessOutcome, PageReply } from './web-pages.js';

/** The most domains one list may hold, as the batch route takes. */
const MAX_LIST = 100;

/** What the list form sends. */
export interface ListForm {
  readonly domains?: string | undefined;
  readonly exposure?: string | undefined;
}

export interface PortfolioPages {
  submitList(form: ListForm, client: string): Promise<AssessOutcome>;
  batch(id: string): Promise<PageReply>;
  history(domain: string, offset: number): Promise<PageReply>;
}

/** `frame`: what every page's header shows beside the navigation. */
export function createPortfolioPages(assessments: AssessmentService, assets: AssetCatalog, frame: PageFrame): PortfolioPages {
  const ok = (text: PageReply['text']): PageReply => ({ status: 200, text });
  return {
    async submitList(form, client) {
      const domains = form.domains ?? '';
      const exposureText = (form.exposure ?? '').trim();
      const again = (status: number, errors: readonly string[], headers?: Readonly<Record<string, string>>): AssessOutcome => ({
        kind: 'page',
        page: { status, text: renderPage(<AssessPage assets={assets} data={{ notice: NOTICE, list: { domains, exposure: exposureText, errors } }} />, frame), ...(headers ? { headers } : {}) },
      });
      const list = parseDomainList(domains, MAX_LIST);
      if (!list.ok) return again(400, [list.message]);
      const read = readExposure(exposureText);
      if (!read.ok) return again(400, [EXPOSURE_REFUSED]);
      const { exposure } = read;
      try {
        const { batch } = await assessments.createBatch({ domains: list.domains, ...(exposure === undefined ? {} : { exposure }) }, client);
        return { kind: 'queued', location: `/assessments/batches/${encodeURIComponent(batch.id)}` };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.code === 'invalid_domain') return again(400, err.errors.map((e, i) => `${list.domains[indexOf(e.location) ?? i]?.domain ?? ''}: ${e.message}`));
        if (err.code === 'rate_limited') return again(429, [err.detail], err.headers);
        throw err;
      }
    },
    batch: async (id) => ok(renderPage(<BatchPage assets={assets} batch={await assessments.getBatch(id)} />, frame)),
    history: async (domain, offset) => ok(renderPage(<HistoryPage assets={assets} history={await assessments.history(domain, { offset })} />, frame)),
  };
}

/** `domains[3]` → 3. */
function indexOf(location: string): number | undefined {
  const match = /\[(\d+)\]$/.exec(location);
  return match?.[1] === undefined ? undefined : Number(match[1]);
}
