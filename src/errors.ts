/**
 * One typed error for everything a caller can be told about. Services throw
 * `new AppError('not_found', '…')`; the HTTP edge maps the code to a status here, in one table.
 */
import type { ErrorCode, ProblemFieldError } from './types.js';

/** Things a caller looks up by id. */
export type Lookup = 'server' | 'tool';

/**
 * A field error's location is the field's name in the operation's input (`category`,
 * `headers.X-Key`): each edge says where that field is in its own protocol (`query.category`).
 */
export class AppError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly errors: readonly ProblemFieldError[] = [],
    /** Extra response headers, e.g. `Retry-After` or `Allow`. */
    readonly headers: Readonly<Record<string, string>> = {},
    /** What a not-found caller was looking for: each edge says in its own terms how to find one. */
    readonly lookup?: Lookup,
  ) {
    super(detail);
    this.name = 'AppError';
  }
}

interface CodeInfo {
  readonly status: number;
  readonly title: string;
}

/** ErrorCode → HTTP status and problem title. Exhaustive: a new code fails the build until added. */
export const ERROR_TABLE: Readonly<Record<ErrorCode, CodeInfo>> = {
  validation_failed: { status: 400, title: 'Invalid request' },
  invalid_domain: { status: 400, title: 'Invalid business domain' },
  invalid_previous: { status: 400, title: 'No such earlier assessment of this domain' },
  malformed_json: { status: 400, title: 'Malformed JSON body' },
  payload_too_large: { status: 413, title: 'Payload too large' },
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  not_found: { status: 404, title: 'Not found' },
  invalid_server_json: { status: 400, title: 'Invalid server.json' },
  version_exists: { status: 409, title: 'Version already published' },
  not_admitted: { status: 403, title: 'Not admitted by the catalog policy' },
  no_change: { status: 400, title: 'Nothing to change' },
  route_not_found: { status: 404, title: 'No such route' },
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  rate_limited: { status: 429, title: 'Too many requests' },
  origin_not_allowed: { status: 403, title: 'Origin not allowed' },
  host_not_allowed: { status: 403, title: 'Host not allowed' },
  blocked_destination: { status: 403, title: 'Destination refused' },
  endpoint_not_found: { status: 404, title: 'No such endpoint' },
  header_not_allowed: { status: 400, title: 'Header not allowed' },
  arguments_too_deep: { status: 400, title: 'Arguments nested too deep' },
  upstream_auth_required: { status: 502, title: 'Endpoint requires authentication' },
  upstream_failed: { status: 502, title: 'Endpoint failed' },
  upstream_not_mcp: { status: 502, title: 'Endpoint is not an MCP server' },
  upstream_too_large: { status: 502, title: 'Endpoint response too large' },
  upstream_timeout: { status: 504, title: 'Endpoint timed out' },
  internal_error: { status: 500, title: 'Internal error' },
  service_unavailable: { status: 503, title: 'Service unavailable' },
  database_unavailable: { status: 503, title: 'Database unavailable' },
  unauthorized: { status: 401, title: 'Unauthorized' },
  forbidden_scope: { status: 403, title: 'Outside the token\'s scopes' },
  too_many_failures: { status: 429, title: 'Too many wrong tokens' },
  watchlists_off: { status: 404, title: 'Watchlists are off' },
};
