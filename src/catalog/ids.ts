/**
 * Stable, URL-safe identifiers (DESIGN.md "Identity"): a server id is a readable slug of its
 * canonical name (`io.github.acme/weather` → `io.github.acme~weather`); a tool id is its
 * server's id, a colon, and the tool's name.
 */

/** The slug of a canonical name; lower-case, `/` as `~`, anything else unsafe as `-`. */
export function slugOf(name: string): string {
  const slug = name
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase()
    .replace(/^@/, '')
    .replace(/\//g, '~')
    .replace(/[^a-z0-9._~-]+/g, '-')
    .replace(/-{2,}/g, '-')
    .replace(/^[-.~]+|[-.~]+$/g, '');
  return slug === '' ? 'server' : slug.slice(0, 200);
}

/**
 * A server's id from its canonical name. A reverse-DNS name keeps its namespace
 * (`io.github.acme/weather` → `io.github.acme~weather`); any other name reads as its product:
 * no registry scope or branch path, no parenthesized aside, no Docker `mcp/` prefix
 * (`@stripe/agent-toolkit/tree/main/x` → `stripe-agent-toolkit`, `crawl4ai-(web scraping)` → `crawl4ai`).
 */
export function serverIdOf(name: string): string {
  if (/^[a-z0-9-]+(\.[a-z0-9-]+)+\/[^/]+$/i.test(name)) return slugOf(name);
  const readable = name
    .replace(/\/(tree|blob)\/.*$/i, '')
    .replace(/\([^)]*\)/g, ' ')
    .replace(/^mcp\//i, '')
    .replace(/\//g, ' ');
  const slug = slugOf(readable);
  return slug === 'server' && readable.trim() === '' ? slugOf(name) : slug;
}

/** The longest tool id the contract looks up (400), less room for uniqueId's `-N`. */
const TOOL_ID_BASE_MAX = 392;

/** A tool's id within its server: the tool name where it is URL-safe, else its slug (cut so the id stays addressable). */
export function toolIdOf(serverId: string, toolName: string): string {
  const safe = /^[A-Za-z0-9._-]+$/.test(toolName) ? toolName : slugOf(toolName);
  return `${serverId}:${safe}`.slice(0, TOOL_ID_BASE_MAX);
}

/** First of `base`, `base-2`, `base-3`… that `taken` does not hold. */
export function uniqueId(base: string, taken: (candidate: string) => boolean): string {
  if (!taken(base)) return base;
  for (let n = 2; ; n += 1) {
    const candidate = `${base}-${n}`;
    if (!taken(candidate)) return candidate;
  }
}
