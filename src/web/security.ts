/**
 * The headers every page and static file carries (DESIGN.md "Web interface"): a strict
 * Content-Security-Policy (scripts and styles only from this origin, no inline script or
 * style, no framing, forms post only here), `nosniff`, and a Referrer-Policy.
 */

/**
 * `style-src 'self'` with no 'unsafe-inline': pages carry no style attribute; the one library
 * that sets styles (Swagger UI on /docs) sets them through the DOM, which CSP allows.
 * `img-src data:` is for the SVG icons Swagger UI's stylesheet embeds.
 */
export const CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  "connect-src 'self'",
  "form-action 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ');

export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'Content-Security-Policy': CONTENT_SECURITY_POLICY,
  'X-Content-Type-Options': 'nosniff',
  'Referrer-Policy': 'strict-origin-when-cross-origin',
  'X-Frame-Options': 'DENY',
};

/** Paths that answer JSON (problem+json when they fail), never pages. */
const API_PATH = /^\/(api|v0\.1|mcp)(\/|$)|^\/(openapi\.json|healthz|readyz)$/;

/** Whether `path` belongs to the pages (and their 404s) rather than an API. */
export function isPagePath(path: string): boolean {
  return !API_PATH.test(path);
}

/** Only `http:` and `https:` URLs become links: anything else (`javascript:`, `data:`) is shown as text. */
export function safeHref(url: string | null | undefined): string | null {
  if (!url) return null;
  try {
    const parsed = new URL(url);
    return parsed.protocol === 'http:' || parsed.protocol === 'https:' ? parsed.toString() : null;
  } catch {
    return null;
  }
}

/** Install deep links Sextant builds itself (Cursor's and VS Code's); any other scheme is not linked. */
const INSTALL_LINK = /^(cursor:\/\/anysphere\.cursor-deeplink\/mcp\/install\?|vscode:mcp\/install\?|vscode-insiders:mcp\/install\?)/;

export function installLinkHref(url: string | null | undefined): string | null {
  if (!url) return null;
  return INSTALL_LINK.test(url) ? url : safeHref(url);
}
