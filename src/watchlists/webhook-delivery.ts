/**
 * Posts a watchlist's run to its webhook once the run's assessments are finished, signed
 * (webhook-signature.ts), through the guarded network client: a private destination is refused
 * there, after DNS resolution, and nothing is sent. A failed attempt is retried with backoff.
 */
import { NOTICE, type AssessmentService } from '../assessments/assessment-service.js';
import { NetError, type NetClient } from '../net/index.js';
import type { Assessment, DeliveryAttempt, DeliveryUpdate, StoredRun, WatchlistStore } from '../store/index.js';
import type { components } from '../../generated/openapi.js';
import { signatureOf } from './webhook-signature.js';

export type WebhookPayload = components['schemas']['WatchlistWebhookPayload'];

/** Attempts in all: the first and five retries. */
export const MAX_ATTEMPTS = 6;
/** Each retry waits this many times the one before (30 s, 2 min, 8 min, 32 min, about 2 h). */
const BACKOFF_FACTOR = 4;
const FINISHED = new Set<Assessment['status']>(['complete', 'partial', 'failed']);

export interface DeliveryOptions {
  /** The wait before the first retry (default 30 s). */
  readonly retryBaseMs?: number;
  /** How soon to look again while the run's assessments are not finished. */
  readonly recheckMs?: number;
  /** Past this, the run is posted with its assessments as they stand (a stuck one must not hold it for ever). */
  readonly maxWaitMs?: number;
  /** The answer of one attempt must come within this (default 10 s). */
  readonly timeoutMs?: number;
}

export interface DelivererDeps {
  readonly store: WatchlistStore;
  readonly assessments: AssessmentService;
  readonly net: NetClient;
  /** PUBLIC_URL: makes the assessments' URLs absolute. */
  readonly publicUrl: string | null;
  readonly now: () => Date;
}

/** Works one claimed run's delivery: what its delivery becomes (the caller stores it). */
export type Deliver = (run: StoredRun) => Promise<DeliveryUpdate>;

export function createDeliverer(deps: DelivererDeps, options: DeliveryOptions = {}): Deliver {
  const retryBaseMs = options.retryBaseMs ?? 30_000;
  const later = (ms: number): string => new Date(deps.now().getTime() + ms).toISOString();
  return async (run) => {
    const watchlist = await deps.store.find(run.watchlistId);
    if (watchlist?.webhookUrl == null || watchlist.webhookSecret === null) return { state: 'none', attempts: run.attempts, nextAttemptAt: null };
    const found = await Promise.all(run.assessments.map((a) => deps.assessments.get(a.assessmentId)));
    const waited = deps.now().getTime() - Date.parse(run.startedAt);
    if (found.some((a) => !FINISHED.has(a.status)) && waited < (options.maxWaitMs ?? 6 * 3_600_000)) {
      return { state: 'pending', attempts: run.attempts, nextAttemptAt: later(options.recheckMs ?? 5_000) };
    }
    const payload: WebhookPayload = {
      watchlist: { id: watchlist.id, name: watchlist.name },
      runAt: run.startedAt,
      domains: found.map((a) => ({ domain: a.domain, assessmentId: a.id, status: a.status, url: `${deps.publicUrl ?? ''}/api/v1/assessments/${encodeURIComponent(a.id)}`, changes: a.changes })),
      notice: NOTICE,
    };
    const attempt = await post(deps, watchlist.webhookUrl, watchlist.webhookSecret, run.id, JSON.stringify(payload), options.timeoutMs ?? 10_000);
    const attempts = [...run.attempts, attempt];
    if (attempt.outcome !== 'failed') return { state: attempt.outcome, attempts, nextAttemptAt: null };
    if (attempts.length >= MAX_ATTEMPTS) return { state: 'failed', attempts, nextAttemptAt: null };
    return { state: 'pending', attempts, nextAttemptAt: later(retryBaseMs * BACKOFF_FACTOR ** (attempts.length - 1)) };
  };
}

/** One signed POST, and what came of it: a 2xx, another status, a refused destination or no answer. */
async function post(deps: DelivererDeps, url: string, secret: string, runId: string, body: string, timeoutMs: number): Promise<DeliveryAttempt> {
  const at = deps.now();
  const timestamp = Math.floor(at.getTime() / 1000);
  const headers = {
    'Content-Type': 'application/json',
    'User-Agent': 'Sextant-Webhook',
    'X-Sextant-Event': 'watchlist.run',
    'X-Sextant-Delivery': runId,
    'X-Sextant-Timestamp': String(timestamp),
    'X-Sextant-Signature': signatureOf(secret, timestamp, body),
  };
  try {
    // Redirects are not followed: a receiver that moved answers 3xx, recorded as a failure.
    const res = await deps.net.request({ method: 'POST', url, headers, body, timeoutMs, maxResponseBytes: 64 * 1024, redirect: 'manual' });
    const ok = res.status >= 200 && res.status < 300;
    return { at: at.toISOString(), outcome: ok ? 'delivered' : 'failed', status: res.status, error: ok ? null : `The receiver answered HTTP ${res.status}.` };
  } catch (err) {
    if (!(err instanceof NetError)) throw err;
    const refused = err.code === 'blocked_destination';
    return { at: at.toISOString(), outcome: refused ? 'refused' : 'failed', status: null, error: `${refused ? 'Refused by the network guard, nothing sent' : 'No answer'}: ${err.message}` };
  }
}
