/** Handlers of the `web` tag: the HTML pages and their static files, each a call to the web pages service (src/web). */
import type { PortfolioPages } from '../../web/portfolio-pages.js';
import type { AssessOutcome, WebPages } from '../../web/web-pages.js';
import type { TextBody } from '../../read/answer-cache.js';
import type { HandlerMap } from '../operation.js';

type PageOperations =
  'getHomePage' | 'getServersPage' | 'getServerPage' | 'getToolsPage' | 'getComparePage' | 'getAssessPage' | 'submitAssessPage' | 'getAssessmentPage' | 'getDocsPage' | 'getAsset' | 'getServerBadge'
  | 'submitAssessBatchPage' | 'getAssessmentBatchPage' | 'getAssessmentHistoryPage';

/** A year: asset names carry their content's hash, so they never change. */
const IMMUTABLE = 'public, max-age=31536000, immutable';
/** Five minutes: image proxies (GitHub's) keep a badge that long, as the status it shows is a moment's. */
const BADGE_CACHE = 'public, max-age=300';
/** An SVG opened on its own is a document: it may run nothing and load nothing. */
const BADGE_HEADERS = { 'Cache-Control': BADGE_CACHE, 'X-Content-Type-Options': 'nosniff', 'Content-Security-Policy': "default-src 'none'; style-src 'unsafe-inline'" };

export function pageHandlers(pages: WebPages, portfolio: PortfolioPages): Pick<HandlerMap, PageOperations> {
  return {
    getHomePage: async ({ signal }) => ok(await pages.home(signal)),
    getServersPage: async ({ query, signal }) => ok(await pages.servers(query, signal)),
    getServerPage: async ({ path, signal }) => {
      const moved = await pages.movedServer(path.id);
      return moved === null ? ok(await pages.server(path.id, signal)) : { status: 301, headers: { Location: moved } };
    },
    getToolsPage: async ({ query, signal }) => ok(await pages.tools(query, signal)),
    getComparePage: async ({ query, signal }) => ok(await pages.compare(query.ids ?? [], signal)),
    getAssessPage: async () => ok(pages.assessForm()),
    submitAssessPage: async ({ body, client }) => formAnswer(await pages.submitAssessment(body, client)),
    submitAssessBatchPage: async ({ body, client }) => formAnswer(await portfolio.submitList(body, client)),
    getAssessmentBatchPage: async ({ path }) => ok(await portfolio.batch(path.id)),
    getAssessmentHistoryPage: async ({ query }) => ok(await portfolio.history(query.domain, query.offset ?? 0)),
    getAssessmentPage: async ({ path }) => ok(await pages.assessment(path.id)),
    getDocsPage: async () => ok(pages.docs()),
    getAsset: async ({ path }) => ({ status: 200, text: pages.asset(path.file), headers: { 'Cache-Control': IMMUTABLE } }),
    getServerBadge: async ({ path, query, signal }) => ({ status: 200, text: (await pages.badge(path.id, query.kind ?? 'status', signal)).text, headers: BADGE_HEADERS }),
  };
}

/** A form's answer: to the page of what it queued, or the form again with the reasons. */
function formAnswer(outcome: AssessOutcome): { status: 303; headers: { Location: string } } | { status: 400 | 429; text: TextBody; headers?: Readonly<Record<string, string>> } {
  if (outcome.kind === 'queued') return { status: 303, headers: { Location: outcome.location } };
  const { status, text, headers } = outcome.page;
  return status === 429 ? { status: 429, text, ...(headers ? { headers } : {}) } : { status: 400, text };
}

function ok(page: { readonly text: { readonly type: string; readonly bytes: Buffer } }): { status: 200; text: { type: string; bytes: Buffer } } {
  return { status: 200, text: page.text };
}
