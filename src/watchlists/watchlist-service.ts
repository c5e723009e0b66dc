/**
 * Watchlists (DESIGN.md "Assessments over time"): a portfolio's domains, re-assessed on a
 * schedule (scheduler.ts), each run optionally posted to a signed webhook (webhook-delivery.ts).
 * This service stores and shows them; it knows no transport and no token (the HTTP edge checks it).
 */
import { randomUUID } from 'node:crypto';
import type { components } from '../../generated/openapi.js';
import { NOTICE, type AssessmentService } from '../assessments/assessment-service.js';
import { checkBusinessDomain } from '../assessments/domain.js';
import { AppError } from '../errors.js';
import type { StoredRun, StoredWatchlist, WatchlistStore } from '../store/index.js';
import type { ProblemFieldError } from '../types.js';
import { newSecret } from './webhook-signature.js';

type Schemas = components['schemas'];
export type Watchlist = Schemas['Watchlist'];
export type WatchlistRequest = Schemas['WatchlistRequest'];
export type WatchlistSummary = Schemas['WatchlistSummary'];
type DomainState = Schemas['WatchlistDomainState'];
type RunView = Schemas['WatchlistRun'];

/** Runs a watchlist's record shows, newest first. */
export const RUNS_SHOWN = 10;

export interface WatchlistService {
  /** Stores a watchlist, due at once; its webhook's signing secret is given here and never again. */
  create(input: WatchlistRequest): Promise<{ watchlist: Watchlist; secret: string | null }>;
  list(): Promise<WatchlistSummary[]>;
  /** The watchlist, each domain's latest assessment with its changes, and its latest runs. */
  get(id: string): Promise<Watchlist>;
  remove(id: string): Promise<void>;
}

export interface WatchlistServiceDeps {
  readonly store: WatchlistStore;
  readonly assessments: AssessmentService;
  readonly now?: () => Date;
}

export function createWatchlistService(deps: WatchlistServiceDeps): WatchlistService {
  const now = deps.now ?? (() => new Date());
  const stored = async (id: string): Promise<StoredWatchlist> => {
    const found = await deps.store.find(id);
    if (!found) throw new AppError('not_found', `No watchlist has the id "${id}".`);
    return found;
  };

  return {
    async create(input) {
      const secret = input.webhook ? newSecret() : null;
      const createdAt = now().toISOString();
      const watchlist: StoredWatchlist = {
        id: randomUUID(), name: input.name ?? null, domains: checkedDomains(input.domains), intervalHours: input.intervalHours,
        webhookUrl: input.webhook?.url ?? null, webhookSecret: secret, createdAt, lastRunAt: null, nextRunAt: createdAt,
      };
      await deps.store.create(watchlist);
      return { watchlist: await viewOf(watchlist, [], deps.assessments), secret };
    },

    async list() {
      return (await deps.store.list()).map(summaryOf);
    },

    async get(id) {
      const watchlist = await stored(id);
      return viewOf(watchlist, await deps.store.runs(id, RUNS_SHOWN), deps.assessments);
    },

    async remove(id) {
      if (!(await deps.store.remove(id))) throw new AppError('not_found', `No watchlist has the id "${id}".`);
    },
  };
}

/**
 * Each domain as a business domain in ASCII, the first of any repeats kept; every invalid one is
 * named (`domains[i]`, with its reason) and then nothing is stored.
 */
function checkedDomains(given: readonly string[]): string[] {
  const errors: ProblemFieldError[] = [];
  const domains: string[] = [];
  given.forEach((input, index) => {
    const checked = checkBusinessDomain(input);
    if (!checked.ok) errors.push({ location: `domains[${index}]`, message: checked.message, reason: checked.reason });
    else if (!domains.includes(checked.domain)) domains.push(checked.domain);
  });
  if (errors.length > 0) {
    const detail = errors.length === 1 ? 'A domain is not a valid business domain; nothing was stored.' : `${errors.length} domains are not valid business domains; nothing was stored.`;
    throw new AppError('invalid_domain', detail, errors);
  }
  return domains;
}

function summaryOf(w: StoredWatchlist): WatchlistSummary {
  return {
    id: w.id, name: w.name, domains: [...w.domains], intervalHours: w.intervalHours, webhook: w.webhookUrl === null ? null : { url: w.webhookUrl },
    createdAt: w.createdAt, lastRunAt: w.lastRunAt, nextRunAt: w.nextRunAt,
  };
}

async function viewOf(w: StoredWatchlist, runs: readonly StoredRun[], assessments: AssessmentService): Promise<Watchlist> {
  return { ...summaryOf(w), latest: await latestOf(w, runs[0], assessments), runs: runs.map(runView), notice: NOTICE };
}

/** Each domain's assessment in the latest run, as it stands, with the changes it carries. */
async function latestOf(w: StoredWatchlist, run: StoredRun | undefined, assessments: AssessmentService): Promise<DomainState[]> {
  return Promise.all(w.domains.map(async (domain): Promise<DomainState> => {
    const id = run?.assessments.find((a) => a.domain === domain)?.assessmentId;
    const found = id === undefined ? null : await assessments.get(id).catch((err: unknown) => {
      if (err instanceof AppError && err.code === 'not_found') return null;
      throw err;
    });
    if (found === null) return { domain, assessmentId: null, status: null, completedAt: null, changes: null };
    return { domain, assessmentId: found.id, status: found.status, completedAt: found.completedAt, changes: found.changes };
  }));
}

export function runView(run: StoredRun): RunView {
  return {
    id: run.id, startedAt: run.startedAt, assessments: run.assessments.map((a) => ({ ...a })),
    delivery: { state: run.deliveryState, attempts: [...run.attempts], nextAttemptAt: run.nextAttemptAt },
  };
}
