/**
 * The pages' security (DESIGN.md "Web interface"): which paths are pages, the headers every page
 * and static file carries, and which URLs may become links.
 */
import type { HelmetOptions } from 'helmet';

/**
 * The pages' headers, as koa-helmet sets them (its defaults; HSTS is for whoever terminates TLS):
 * scripts and styles only from this origin, none inline (Swagger UI styles through the DOM, which
 * CSP allows; `data:` images are its stylesheet's icons), no framing, forms post only here.
 */
export const PAGE_SECURITY: Readonly<HelmetOptions> = {
  contentSecurityPolicy: {
    useDefaults: false,
    directives: {
      defaultSrc: ["'none'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'"],
      imgSrc: ["'self'", 'data:'],
      fontSrc: ["'self'"],
      connectSrc: ["'self'"],
      formAction: ["'self'"],
      baseUri: ["'none'"],
      frameAncestors: ["'none'"],
    },
  },
  referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
  xFrameOptions: { action: 'deny' },
  strictTransportSecurity: false,
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
