/**
 * The text the catalog's full-text tables hold for a record, made from what it says (the catalog
 * writer fills every column through these; every search engine reads that text):
 *  - names are split into their words as well (`listPullRequests` → list pull requests), beside
 *    the name as written;
 *  - a run of Chinese, Japanese or Korean characters, written without spaces, is held as its
 *    overlapping pairs and its last character (天气预报 → 天气 气预 预报 报), so a shorter run
 *    is found inside a longer one: queries split such runs the same way (src/search/query.ts);
 *  - a tool's input schema is held as its property names and descriptions.
 */

const CJK_RUN = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]+/gu;
const HAS_CJK = /[\p{Script=Han}\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Hangul}]/u;
/** A word with a case change inside (camelCase, PascalCase, HTTPServer). */
const CASED_WORD = /[\p{L}\p{N}]*(?:\p{Ll}\p{Lu}|\p{Lu}\p{Lu}\p{Ll})[\p{L}\p{N}]*/gu;
const CASE_BOUNDARY = /(?<=\p{Ll})(?=\p{Lu})|(?<=\p{Lu})(?=\p{Lu}\p{Ll})/u;

/** Characters of a tool's schema text held at most: a schema's words, not its whole body. */
const SCHEMA_TEXT_LIMIT = 2_000;
/** Levels of nested properties read. */
const SCHEMA_DEPTH = 4;

/** The overlapping pairs of a run (a single character stays itself). */
export function pairsOf(run: string): string[] {
  const chars = [...run];
  if (chars.length < 2) return chars;
  return chars.slice(1).map((char, i) => `${chars[i] as string}${char}`);
}

/** `text` with each CJK run written as its pairs and its last character, between spaces. */
export function withCjkPairs(text: string): string {
  if (!HAS_CJK.test(text)) return text;
  return text.replace(CJK_RUN, (run) => {
    const chars = [...run];
    const held = chars.length < 2 ? chars : [...pairsOf(run), chars[chars.length - 1] as string];
    return ` ${held.join(' ')} `;
  });
}

/** Whether a word holds CJK characters. */
export function hasCjk(word: string): boolean {
  return HAS_CJK.test(word);
}

/** The CJK runs and other parts of a word, in order (`天气api` → 天气, api). */
export function cjkParts(word: string): Array<{ text: string; cjk: boolean }> {
  const parts: Array<{ text: string; cjk: boolean }> = [];
  let at = 0;
  for (const match of word.matchAll(CJK_RUN)) {
    const start = match.index ?? 0;
    if (start > at) parts.push({ text: word.slice(at, start), cjk: false });
    parts.push({ text: match[0], cjk: true });
    at = start + match[0].length;
  }
  if (at < word.length) parts.push({ text: word.slice(at), cjk: false });
  return parts;
}

/** A record's ordinary text (titles, descriptions, categories) as indexed. */
export function searchTextOf(text: string): string {
  return withCjkPairs(text);
}

/** A name, or text made of names, as indexed: as written, then the words of its cased names. */
export function searchNameOf(text: string): string {
  const cased = text.match(CASED_WORD);
  const split = cased ? cased.map((word) => word.split(CASE_BOUNDARY).join(' ')).join(' ') : '';
  return withCjkPairs(split === '' ? text : `${text} ${split}`);
}

/**
 * A tool's input schema as indexed: its properties' names (with their words) and descriptions,
 * nested ones too, up to SCHEMA_DEPTH levels and SCHEMA_TEXT_LIMIT characters.
 */
export function schemaTextOf(schema: unknown): string {
  const out: string[] = [];
  let length = 0;
  const visit = (node: unknown, depth: number): void => {
    if (depth > SCHEMA_DEPTH || length >= SCHEMA_TEXT_LIMIT || node === null || typeof node !== 'object') return;
    const properties = (node as { properties?: unknown }).properties;
    if (properties === null || typeof properties !== 'object' || Array.isArray(properties)) return;
    for (const [name, property] of Object.entries(properties as Record<string, unknown>)) {
      if (length >= SCHEMA_TEXT_LIMIT) return;
      const description = property !== null && typeof property === 'object' ? (property as { description?: unknown }).description : undefined;
      const text = typeof description === 'string' ? `${name} ${description.slice(0, SCHEMA_TEXT_LIMIT - length)}` : name;
      out.push(typeof description === 'string' ? `${searchNameOf(name.replace(/[_-]+/g, ' '))} ${searchTextOf(description.slice(0, SCHEMA_TEXT_LIMIT - length))}` : searchNameOf(name.replace(/[_-]+/g, ' ')));
      length += text.length + 1;
      visit(property, depth + 1);
      const items = property !== null && typeof property === 'object' ? (property as { items?: unknown }).items : undefined;
      visit(items, depth + 1);
    }
  };
  visit(schema, 1);
  return out.join(' ');
}

/** A server's full-text row (name, title, description, categories, tools: store/fts.ts) from its text. */
export function serverSearchRow(name: string, title: string, description: string, categories: string, tools: string): string[] {
  return [searchNameOf(name), searchTextOf(title), searchTextOf(description), searchTextOf(categories), searchNameOf(tools)];
}

/** A tool's full-text row (name, title, description, server, schema) from its text and its input schema. */
export function toolSearchRow(name: string, title: string, description: string, server: string, inputSchema: unknown): string[] {
  return [searchNameOf(name), searchTextOf(title), searchTextOf(description), searchNameOf(server), schemaTextOf(inputSchema)];
}
