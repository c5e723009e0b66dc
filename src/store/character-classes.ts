/**
 * How SQLite's FTS5 tokenizer treats characters, asked of SQLite itself: the in-memory search
 * engine tokenizes as FTS5 does, and learns each non-ASCII character's class from here (SQLite's
 * Unicode tables differ from JavaScript's, e.g. for some emoji).
 */
import { openDatabase, rowsOf } from './db.js';

/** Rows probed per statement (two rows, one binding each, per character). */
const PROBE_CHUNK = 400;

/** How the tokenizer treats one character. */
export interface CharacterClassOf {
  /** Starts a token (a letter, number or private-use character to SQLite's tables). */
  readonly starts: boolean;
  /** Continues a token (those, and the diacritics it folds away). */
  readonly continues: boolean;
  /** What it becomes in a token: lower case, without diacritics ('' for a diacritic). */
  readonly folded: string;
}

/**
 * Each of `chars` as FTS5's `tokenizer` (e.g. `unicode61 remove_diacritics 2`) treats it: an
 * in-memory FTS5 table holds ` c ` (does c start a token, and what does it fold to?) and `aca`
 * (does it continue one?), and fts5vocab lists the tokens it made.
 */
export async function classifyCharacters(chars: readonly string[], tokenizer: string): Promise<Map<string, CharacterClassOf>> {
  const probe = openDatabase('sqlite::memory:');
  try {
    await probe.raw(`CREATE VIRTUAL TABLE probe USING fts5(text, tokenize = "${tokenizer}")`);
    await probe.raw(`CREATE VIRTUAL TABLE probe_tokens USING fts5vocab(probe, 'instance')`);
    for (let from = 0; from < chars.length; from += PROBE_CHUNK) {
      const rows = chars.slice(from, from + PROBE_CHUNK).flatMap((char, i) => [2 * (from + i) + 1, ` ${char} `, 2 * (from + i) + 2, `a${char}a`]);
      await probe.raw(`INSERT INTO probe(rowid, text) VALUES ${Array.from({ length: rows.length / 2 }, () => '(?, ?)').join(', ')}`, rows);
    }
    const tokens = new Map<number, string[]>();
    for (const row of rowsOf<{ doc: number; term: string }>(await probe.raw('SELECT doc, term FROM probe_tokens ORDER BY doc, "offset"'))) {
      tokens.set(row.doc, [...(tokens.get(row.doc) ?? []), row.term]);
    }
    const out = new Map<string, CharacterClassOf>();
    chars.forEach((char, i) => {
      const alone = tokens.get(2 * i + 1) ?? [];
      const within = tokens.get(2 * i + 2) ?? [];
      const starts = alone.length === 1;
      const continues = within.length === 1;
      out.set(char, { starts, continues, folded: starts ? (alone[0] as string) : continues ? (within[0] as string).slice(1, -1) : '' });
    });
    return out;
  } finally {
    await probe.destroy();
  }
}
