/** Turns undici and system errors into `NetError`s, the only errors `src/net` rejects with. */
import { NetError } from './errors.js';

const TIMEOUT_CODES: ReadonlySet<string> = new Set([
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
  'ETIMEDOUT',
]);

function errorCode(err: unknown): string | undefined {
  if (typeof err !== 'object' || err === null || !('code' in err)) return undefined;
  return typeof err.code === 'string' ? err.code : undefined;
}

/**
 * Maps any failure of a request to a `NetError`: NetErrors pass through, an abort by the total
 * timer and undici/system timeouts become `timeout`, everything else (ECONNREFUSED, ECONNRESET,
 * TLS failures, sockets closed early) `connect_failed`.
 */
export function toNetError(err: unknown, signal?: AbortSignal): NetError {
  if (err instanceof NetError) return err;
  if (signal?.aborted === true) {
    const reason: unknown = signal.reason;
    return reason instanceof NetError ? reason : new NetError('timeout', 'request aborted by the total timeout', { cause: err });
  }
  const code = errorCode(err);
  const message = err instanceof Error ? err.message : String(err);
  const detail = code === undefined ? message : `${code}: ${message}`;
  if (code !== undefined && TIMEOUT_CODES.has(code)) return new NetError('timeout', detail, { cause: err });
  if (code === 'UND_ERR_RES_EXCEEDED_MAX_SIZE') return new NetError('too_large', detail, { cause: err });
  return new NetError('connect_failed', detail, { cause: err });
}
