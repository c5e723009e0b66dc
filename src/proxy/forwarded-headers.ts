/**
 * Which declared headers the proxy forwards (DESIGN.md "Proxy"): those a server's record
 * declares, less the ones that belong to the connection or to the proxy's own MCP session,
 * which a record cannot make us send whatever it declares.
 */
import { AppError } from '../errors.js';
import type { Remote } from '../types.js';

/** Never forwarded, each with the reason a caller is told. Names are lower case; `proxy-` is a prefix. */
export const NEVER_FORWARDED: ReadonlyArray<readonly [name: string, reason: string]> = [
  ['connection', 'a hop-by-hop header'],
  ['keep-alive', 'a hop-by-hop header'],
  ['proxy-', 'a hop-by-hop header'],
  ['te', 'a hop-by-hop header'],
  ['trailer', 'a hop-by-hop header'],
  ['transfer-encoding', 'a hop-by-hop header'],
  ['upgrade', 'a hop-by-hop header'],
  ['host', 'set from the catalogued endpoint URL'],
  ['cookie', 'never forwarded: cookies belong to a browser session, not to the endpoint record'],
  ['content-length', 'set by the proxy for the body it sends'],
  ['content-type', 'set by the proxy for the body it sends'],
  ['accept', 'set by the proxy (JSON and event streams)'],
  ['expect', 'not used by the proxy'],
  ['mcp-session-id', "the proxy's own MCP session header"],
  ['mcp-protocol-version', "the proxy's own MCP session header"],
];

function refusal(lower: string): string | null {
  for (const [name, reason] of NEVER_FORWARDED) if (name.endsWith('-') ? lower.startsWith(name) : lower === name) return reason;
  return null;
}

/** The headers to send: only those the record declares for this endpoint and the rules allow, with safe values. */
export function forwardedHeaders(remote: Remote, headers: Readonly<Record<string, string>>): Record<string, string> {
  const declared = new Map(remote.headers.map((h) => [h.name.toLowerCase(), h.name]));
  const passed: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    const lower = name.toLowerCase();
    const reason = refusal(lower);
    if (reason !== null) {
      throw new AppError('header_not_allowed', `Header "${name}" is never forwarded by the proxy (${reason}), even when an endpoint's record declares it.`, [{ location: `headers.${name}`, message: 'is never forwarded' }]);
    }
    const canonical = declared.get(lower);
    if (!canonical) {
      const allowed = remote.headers.map((h) => h.name).filter((h) => refusal(h.toLowerCase()) === null).join(', ') || 'none';
      throw new AppError('header_not_allowed', `Header "${name}" is not declared by this endpoint's record; allowed: ${allowed}.`, [{ location: `headers.${name}`, message: 'is not declared for this endpoint' }]);
    }
    if (/[\r\n\0]/.test(value)) throw new AppError('validation_failed', `Header "${name}" has a control character.`, [{ location: `headers.${name}`, message: 'must not contain CR, LF or NUL' }]);
    passed[canonical] = value;
  }
  return passed;
}
