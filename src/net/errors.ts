/** What went wrong with an outbound request. Callers branch on the code, never on the message. */
export type NetErrorCode =
  | 'blocked_destination'
  | 'invalid_url'
  | 'dns_failure'
  | 'connect_failed'
  | 'timeout'
  | 'too_large'
  | 'redirect_refused'
  | 'too_many_redirects';

/**
 * The only error `src/net` rejects with. Messages name hosts and addresses, never request
 * headers (they may carry credentials). `options.cause` keeps the underlying undici/system error.
 */
export class NetError extends Error {
  constructor(
    readonly code: NetErrorCode,
    message: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
    this.name = 'NetError';
  }
}
