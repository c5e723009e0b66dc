/**
 * The web pages as a service: each page reads the catalog through the read model (the one read
 * door, as the REST handlers do) or the assessment service, and renders with preact; a page of
 * the catalog is kept in the read model's cache beside the answers it shows (`read.page`).
 * Errors are thrown as AppErrors; the web edge (src/http/web-edge.ts) shows them as pages.
 */
import type { AssessmentService } from '../assessments/assessment-service.js';
import { NOTICE } from '../assessments/assessment-service.js';
import { AppError } from '../errors.js';
import type { Answer } from '../read/answer.js';
import type { TextBody } from '../read/answer-cache.js';
import type { ReadModel } from '../read/read-model.js';
import type { Authentication, Server, ServerSort, Tool, ToolSort } from '../types.js';
import type { AssetCatalog } from './assets.js';
import { AssessPage, type AssessData } from './pages/assess.js';
import { AssessmentPage } from './pages/assessment.js';
import { ComparePage } from './pages/compare.js';
import { DocsPage } from './pages/docs.js';
import { LoginPage, type LoginData } from './pages/login.js';
import { ErrorPage, type ErrorData } from './pages/error.js';
import { HomePage } from './pages/home.js';
import { badgeSvg } from './badge.js';
import { statusBadge, toolsBadge, trustBadge, type BadgeKind } from './server-badges.js';
import { ServerPageView } from './pages/server.js';
import { ServersPage } from './pages/servers.js';
import { ToolsPage } from './pages/tools.js';
import { EXPOSURE_REFUSED, readExposure } from './domain-list.js';
import { renderPage, type PageFrame } from './render.js';

/** Results on a page of /servers and /tools. */
export const PAGE_SIZE = 20;
/** Tools whose details (input schema, annotations) a server page shows; the rest are listed by name. */
const TOOL_DETAILS = 200;

export interface ServersPageInput {
  readonly q?: string | undefined;
  readonly category?: string | undefined;
  readonly trust?: 'clean' | undefined;
  readonly quality?: 'unflagged' | 'flagged' | undefined;
  readonly sort?: ServerSort | undefined;
  readonly offset?: number | undefined;
  readonly compare?: readonly string[] | undefined;
}

export interface ToolsPageInput {
  readonly q?: string | undefined;
  readonly authentication?: Authentication | undefined;
  readonly sort?: ToolSort | undefined;
  readonly offset?: number | undefined;
}

/** What the assessment form sends. */
export interface AssessForm {
  readonly domain?: string | undefined;
  readonly exposure?: string | undefined;
  readonly previous?: string | undefined;
}

/** What a page handler answers: a page's (or a static file's) bytes and media type, with its status. */
export interface PageReply {
  readonly status: number;
  readonly text: TextBody;
  readonly headers?: Readonly<Record<string, string>>;
}

export type AssessOutcome = { readonly kind: 'page'; readonly page: PageReply } | { readonly kind: 'queued'; readonly location: string };

/** `signal`, where a page takes one: its reader has gone, so a rendering not started for it need not start. */
export interface WebPages {
  home(signal?: AbortSignal): Promise<PageReply>;
  servers(input: ServersPageInput, signal?: AbortSignal): Promise<PageReply>;
  tools(input: ToolsPageInput, signal?: AbortSignal): Promise<PageReply>;
  server(id: string, signal?: AbortSignal): Promise<PageReply>;
  /** The page of a server under its current id, when `id` is one it had before a merge (else null). */
  movedServer(id: string): Promise<string | null>;
  compare(ids: readonly string[], signal?: AbortSignal): Promise<PageReply>;
  /** A server's badge for a README (server-badges.ts), kept as the answers it shows. */
  badge(id: string, kind: BadgeKind, signal?: AbortSignal): Promise<PageReply>;
  assessForm(): PageReply;
  submitAssessment(form: AssessForm, client: string): Promise<AssessOutcome>;
  assessment(id: string): Promise<PageReply>;
  docs(): PageReply;
  /** A static file by its hashed name; unknown names are not_found. */
  asset(file: string): TextBody;
  error(data: ErrorData): PageReply;
  /** The sign-in form of a registry that needs a token to read. */
  login(data: LoginData, status: 200 | 401): PageReply;
}

export interface WebPagesDeps {
  readonly read: ReadModel;
  readonly assessments: AssessmentService;
  readonly assets: AssetCatalog;
  /** What every page's header shows beside the navigation (the sign-in page's excepted). */
  readonly frame: PageFrame;
}

export function createWebPages({ read, assessments, assets, frame }: WebPagesDeps): WebPages {
  return {
    ...catalogPages(read, assets, frame),
    ...checkedPages(read, assets, frame),
    ...assessmentPages(assessments, assets, frame),
    docs: () => ok(renderPage(<DocsPage assets={assets} />, frame)),
    asset(file) {
      const found = assets.find(file);
      if (!found) throw new AppError('route_not_found', `There is no file /assets/${file}.`);
      return { type: found.type, bytes: found.bytes };
    },
    error: (data) => ({ status: data.status, text: renderPage(<ErrorPage assets={assets} data={data} />, frame) }),
    // Whoever is shown the sign-in form has no session to end.
    login: (data, status) => ({ status, text: renderPage(<LoginPage assets={assets} data={data} />) }),
  };
}

const ok = (text: TextBody): PageReply => ({ status: 200, text });

/** A page's not found, said without the REST hint. */
function notFoundHere(err: unknown, id: string): unknown {
  return err instanceof AppError && err.code === 'not_found' ? new AppError('not_found', `No server has the id or name “${id}”.`) : err;
}

/** A server's answer for a page. */
function serverAnswer(read: ReadModel, id: string): Promise<Answer<Server>> {
  return read.getServer(id).catch((err: unknown) => {
    throw notFoundHere(err, id);
  });
}

function titledOf(answers: readonly Answer<Server>[]): Array<{ id: string; title: string }> {
  return answers.map((answer) => {
    const found = answer.value;
    return { id: found.id, title: found.title ?? found.name };
  });
}

/** The pages of the catalog alone, kept until it changes. */
function catalogPages(read: ReadModel, assets: AssetCatalog, frame: PageFrame): Pick<WebPages, 'home' | 'servers' | 'tools'> {
  return {
    async home(signal) {
      return ok(await read.page('home', async () => {
        // The newest without test, template or placeholder records; the totals count every server.
        const [recent, servers, tools, categories] = await Promise.all([
          read.searchServers({ sort: 'newest', quality: 'unflagged', limit: 6, offset: 0 }),
          read.searchServers({ limit: 1, offset: 0 }),
          read.searchTools({ limit: 1, offset: 0 }),
          read.listCategories(),
        ]);
        return renderPage(<HomePage assets={assets} data={{ recent: recent.value.items, serverTotal: servers.value.total, toolTotal: tools.value.total, categories: categories.value }} />, frame);
      }, false, signal));
    },

    async servers(input, signal) {
      const compare = [...new Set(input.compare ?? [])];
      const key = `servers\n${JSON.stringify([input.q, input.category, input.trust, input.quality, input.sort, input.offset ?? 0, compare])}`;
      return ok(await read.page(key, async (gone) => {
        const [page, categories, chosen] = await Promise.all([
          read.searchServers({ q: input.q, category: input.category, trust: input.trust, quality: input.quality, sort: input.sort, limit: PAGE_SIZE, offset: input.offset ?? 0 }, gone),
          read.listCategories(),
          Promise.all(compare.map((id) => serverAnswer(read, id))),
        ]);
        return renderPage(<ServersPage assets={assets} data={{ page: page.value, categories: categories.value, chosen: titledOf(chosen) }} />, frame);
      }, false, signal));
    },

    async tools(input, signal) {
      const key = `tools\n${JSON.stringify([input.q, input.authentication, input.sort, input.offset ?? 0])}`;
      return ok(await read.page(key, async (gone) => {
        const page = await read.searchTools({ q: input.q, authentication: input.authentication, sort: input.sort, limit: PAGE_SIZE, offset: input.offset ?? 0 }, gone);
        return renderPage(<ToolsPage assets={assets} page={page.value} />, frame);
      }, false, signal));
    },
  };
}

/** The pages that show trust and status: kept as those answers are, for a moment. */
function checkedPages(read: ReadModel, assets: AssetCatalog, frame: PageFrame): Pick<WebPages, 'server' | 'movedServer' | 'compare' | 'badge'> {
  return {
    async badge(id, kind, signal) {
      return ok(await read.page(`badge\n${kind}\n${id}`, async () => {
        const text = kind === 'status' ? statusBadge((await read.getStatus(id)).value)
          : kind === 'trust' ? trustBadge((await read.getTrust(id)).value)
          : toolsBadge((await read.getServer(id)).value);
        return { type: 'image/svg+xml', bytes: Buffer.from(badgeSvg(text)) };
      }, kind !== 'tools', signal));
    },

    async movedServer(id) {
      const server = await read.getServer(id).then((answer) => answer.value, () => null);
      return server !== null && server.id !== id && server.name !== id ? `/servers/${encodeURIComponent(server.id)}` : null;
    },

    async server(id, signal) {
      return ok(await read.page(`server\n${id}`, async () => {
        const [view, categories] = await Promise.all([
          read.getServerView(id).catch((err: unknown) => {
            throw notFoundHere(err, id);
          }),
          read.listCategories(),
        ]);
        const { server, tools, install, trust, status } = view;
        const details = new Map<string, Tool>(tools.slice(0, TOOL_DETAILS).map((tool) => [tool.id, tool]));
        return renderPage(<ServerPageView assets={assets} data={{ server, tools: details, install, trust, status, categories: categories.value }} />, frame);
      }, true, signal));
    },

    async compare(given, signal) {
      const ids = [...new Set(given.flatMap((value) => value.split(',')).map((id) => id.trim()).filter(Boolean))];
      if (ids.length > 10) throw new AppError('validation_failed', `Compare at most 10 servers at a time; ${ids.length} were given.`, [{ location: 'query.ids', message: 'must name 2 to 10 servers' }]);
      if (ids.length < 2) {
        const chosen = titledOf(await Promise.all(ids.map((id) => serverAnswer(read, id))));
        return ok(renderPage(<ComparePage assets={assets} data={{ kind: 'choose', chosen }} />, frame));
      }
      return ok(await read.page(`compare\n${JSON.stringify(ids)}`, async (gone) => {
        const [comparison, categories] = await Promise.all([read.compareServers(ids, gone), read.listCategories()]);
        const categoryNames = new Map(categories.value.items.map((c) => [c.slug, c.name]));
        return renderPage(<ComparePage assets={assets} data={{ kind: 'comparison', comparison: comparison.value, categoryNames }} />, frame);
      }, true, signal));
    },
  };
}

/** The assessment form, what sending it does, and an assessment's page. */
function assessmentPages(assessments: AssessmentService, assets: AssetCatalog, frame: PageFrame): Pick<WebPages, 'assessForm' | 'submitAssessment' | 'assessment'> {
  return {
    assessForm: () => ok(renderPage(<AssessPage assets={assets} data={{ notice: NOTICE }} />, frame)),

    async submitAssessment(form, client) {
      const domain = (form.domain ?? '').trim();
      const exposureText = (form.exposure ?? '').trim();
      const again = (status: number, errors: AssessData['errors'], headers?: Readonly<Record<string, string>>): AssessOutcome => ({
        kind: 'page',
        page: { status, text: renderPage(<AssessPage assets={assets} data={{ notice: NOTICE, domain, exposure: exposureText, errors }} />, frame), ...(headers ? { headers } : {}) },
      });
      if (domain === '') return again(400, { domain: 'Enter the business’s domain, such as example-business.co.uk.' });
      const read = readExposure(exposureText);
      if (!read.ok) return again(400, { exposure: EXPOSURE_REFUSED });
      const { exposure } = read;
      try {
        const previous = (form.previous ?? '').trim();
        const { assessment } = await assessments.create({ domain, ...(exposure === undefined ? {} : { exposure }), ...(previous === '' ? {} : { previous }) }, client);
        return { kind: 'queued', location: `/assessments/${encodeURIComponent(assessment.id)}` };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        if (err.code === 'invalid_domain' || err.code === 'validation_failed') return again(400, { domain: err.errors[0]?.message ?? err.detail });
        if (err.code === 'invalid_previous') return again(400, { form: err.detail });
        if (err.code === 'rate_limited') return again(429, { form: err.detail }, err.headers);
        throw err;
      }
    },

    async assessment(id) {
      return ok(renderPage(<AssessmentPage assets={assets} assessment={await assessments.get(id)} />, frame));
    },
  };
}
