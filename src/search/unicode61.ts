/**
 * FTS5's unicode61 tokenizer (`remove_diacritics 2`, ranking.ts: FTS_TOKENIZER) in JavaScript,
 * for the in-memory engine: ASCII by rule, every other character by what SQLite itself says of it.
 */

/** How unicode61 treats one non-ASCII character (learned from SQLite itself: memory-build.ts). */
export interface CharacterClass {
  /** Starts a token (a letter, number or private-use character to SQLite's tables). */
  readonly starts: boolean;
  /** Continues a token (those, and the diacritics it folds away). */
  readonly continues: boolean;
  /** What it becomes in a token: lower case, without diacritics ('' for a diacritic). */
  readonly folded: string;
}

const ASCII_ONLY = /^[\x00-\x7f]*$/;
const ASCII_WORD = /[a-z0-9]+/g;
const NON_ASCII = /[^\x00-\x7f]/gu;
/** Each ASCII character as a token character ('' for a separator): its lower case. */
const ASCII_FOLD: readonly string[] = Array.from({ length: 128 }, (_, code) => {
  const char = String.fromCharCode(code);
  return /[A-Za-z0-9]/.test(char) ? char.toLowerCase() : '';
});

/**
 * FTS5's unicode61 tokenizer (remove_diacritics 2): ASCII letters and digits by rule, every other
 * character by a table filled in from SQLite, so that token boundaries and folding are SQLite's
 * own (its Unicode tables differ from JavaScript's, e.g. for some emoji).
 */
export class Unicode61 {
  /** By code point. */
  private readonly table = new Map<number, CharacterClass>();

  /** The distinct non-ASCII characters of `texts` not classified yet. */
  unknown(texts: Iterable<string | null>): string[] {
    const out = new Set<string>();
    for (const text of texts) {
      if (!text || ASCII_ONLY.test(text)) continue;
      for (const [char] of text.matchAll(NON_ASCII)) if (!this.table.has(char.codePointAt(0) as number)) out.add(char);
    }
    return [...out];
  }

  /** Every character classified so far, by code point (what a snapshot keeps: index-snapshot.ts). */
  classes(): Array<[number, CharacterClass]> {
    return [...this.table];
  }

  /** Classes kept by `classes()`. */
  learnCodes(classes: Iterable<readonly [number, CharacterClass]>): void {
    for (const [code, cls] of classes) this.table.set(code, cls);
  }

  learn(classes: ReadonlyMap<string, CharacterClass>): void {
    for (const [char, cls] of classes) this.table.set(char.codePointAt(0) as number, cls);
  }

  /** The tokens of `text` as FTS5 stores them; null if it holds a character not classified yet. */
  tokenize(text: string): string[] | null {
    if (ASCII_ONLY.test(text)) return text.toLowerCase().match(ASCII_WORD) ?? [];
    const out: string[] = [];
    let token = '';
    let within = false;
    for (let i = 0; i < text.length; ) {
      const code = text.codePointAt(i) as number;
      i += code > 0xffff ? 2 : 1;
      let starts: boolean;
      let continues: boolean;
      let folded: string;
      if (code < 128) {
        folded = ASCII_FOLD[code] as string;
        starts = continues = folded !== '';
      } else {
        const cls = this.table.get(code);
        if (!cls) return null;
        ({ starts, continues, folded } = cls);
      }
      if (within && continues) {
        token += folded;
        continue;
      }
      if (within) {
        out.push(token);
        within = false;
      }
      if (starts) {
        within = true;
        token = folded;
      }
    }
    if (within) out.push(token);
    return out;
  }
}
