/**
 * Just enough HTML reading for the page observations: the title, the links and the visible text.
 * Regular expressions over a capped prefix of the page; no scripts are run, nothing is fetched.
 */

/** Only the first part of a page is read. */
const MAX_HTML_CHARS = 512 * 1024;
const MAX_TITLE_CHARS = 200;
const MAX_LINKS = 1000;

const NAMED_ENTITIES: Readonly<Record<string, string>> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: ' ' };

/** Decodes the common named and all numeric character references. */
export function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (whole: string, ref: string) => {
    const lower = ref.toLowerCase();
    if (lower.startsWith('#')) {
      const code = lower.startsWith('#x') ? Number.parseInt(lower.slice(2), 16) : Number.parseInt(lower.slice(1), 10);
      return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
    }
    return NAMED_ENTITIES[lower] ?? whole;
  });
}

function collapse(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** The `<title>` text, entity-decoded, whitespace collapsed, capped at 200 characters; null when absent or empty. */
export function pageTitle(html: string): string | null {
  const match = /<title\b[^>]*>([\s\S]*?)<\/title\s*>/i.exec(html.slice(0, MAX_HTML_CHARS));
  const title = collapse(decodeEntities(match?.[1] ?? ''));
  if (title === '') return null;
  return title.length > MAX_TITLE_CHARS ? `${title.slice(0, MAX_TITLE_CHARS - 1)}…` : title;
}

/** Text without tags, scripts and styles, entity-decoded and collapsed. */
export function visibleText(html: string): string {
  const stripped = html
    .slice(0, MAX_HTML_CHARS)
    .replace(/<(script|style|noscript)\b[\s\S]*?<\/\1\s*>/gi, ' ')
    .replace(/<[^>]*>/g, ' ');
  return collapse(decodeEntities(stripped));
}

/** One `<a href>` of a page: the raw href and the link text. */
export interface PageLink {
  readonly href: string;
  readonly text: string;
}

/** The first 1 000 `<a href="…">…</a>` links of a page, in document order. */
export function pageLinks(html: string): PageLink[] {
  const links: PageLink[] = [];
  for (const match of html.slice(0, MAX_HTML_CHARS).matchAll(/<a\b([^>]*)>([\s\S]*?)<\/a\s*>/gi)) {
    const href = /\bhref\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s"'>]+))/i.exec(match[1] ?? '');
    const raw = href?.[1] ?? href?.[2] ?? href?.[3];
    if (raw !== undefined) links.push({ href: decodeEntities(raw.trim()), text: visibleText(match[2] ?? '') });
    if (links.length >= MAX_LINKS) break;
  }
  return links;
}
