/**
 * The ranking rules, stated once (as Meilisearch states its ranking rules): what a relevance
 * search with words matches, and the ordered rules that sort the matches, each breaking the ties
 * of those before it. Every engine implements them with the constants below: FTS5 in SQL
 * (fts5-engine.ts), the in-memory engine in JavaScript to the bit (memory-index.ts,
 * text-index.ts), PostgreSQL in SQL with ts_rank standing in for bm25 (postgres-engine.ts).
 * Other sorts (a-z, newest, …) are plain orders that only the SQL engines answer.
 */
import { FTS_COLUMNS, type FtsColumn, type FtsTable } from '../store/fts.js';

/** One rule: its name, and what it says. */
export interface RankingRule {
  readonly name: string;
  readonly rule: string;
}

/** What a search with words matches (a filter, before any rule orders). */
export const MATCH_RULE =
  'every query word matches, as a prefix, a word of the weighted columns (FTS_WEIGHTS); words are split and folded by FTS_TOKENIZER';

/**
 * What a server search matches, in turn: the first step that matches anything answers, and the
 * ranking rules order its matches (the name tiers, then bm25, then id). A server's reverse-DNS
 * namespace (`io.github.someone/` in `io.github.someone/weather`) is not in the indexed text:
 * it matches no word (step 2), only a search for the namespace itself (step 1).
 */
export const MATCH_STEPS: readonly RankingRule[] = [
  { name: 'name prefix', rule: 'a query shaped as a namespace or a name (query.ts: namePrefixOf) matches the servers one of whose match names starts with it' },
  { name: 'words', rule: MATCH_RULE },
  { name: 'typos', rule: 'when nothing matched: a word of TYPOS.oneEdit or more letters also matches the indexed words within one edit of it (two from TYPOS.twoEdits), the closest TYPOS.maxTerms of them (typos.ts)' },
];

/**
 * Typo tolerance (DESIGN.md "Search quality"), as Meilisearch's defaults: one edit (an insertion,
 * deletion, substitution or transposition of adjacent letters) from 5 letters, two from 9, in
 * queries whose words are all ASCII letters and digits (so every engine splits them alike); a
 * word matches at most `maxTerms` other indexed words.
 * Typo matches are found only when no server (no tool) matches without one, so they always rank
 * below exact and prefix matches.
 */
export const TYPOS = { oneEdit: 5, twoEdits: 9, maxTerms: 16 } as const;

/** How a relevance search orders servers, first rule first. */
export const SERVER_RANKING_RULES: readonly RankingRule[] = [
  { name: 'exact name', rule: 'a server one of whose match names equals the query text (NAME_TIERS.exact)' },
  { name: 'prefix name', rule: 'then a server one of whose match names starts with the query text (NAME_TIERS.prefix)' },
  { name: 'sources', rule: 'within each name tier: the server more sources list first' },
  { name: 'name length', rule: 'within each name tier: then the shorter display name (sort_name, in characters)' },
  { name: 'bm25', rule: 'then the higher bm25 relevance, with FTS_WEIGHTS.servers_fts' },
  { name: 'id', rule: 'then the lower id, byte by byte' },
];

/** How a relevance search orders tools, first rule first. */
export const TOOL_RANKING_RULES: readonly RankingRule[] = [
  { name: 'exact name', rule: 'a tool whose name (sort_name) equals the query text' },
  { name: 'prefix name', rule: 'then a tool whose name starts with the query text' },
  { name: 'bm25', rule: 'then the higher bm25 relevance, with FTS_WEIGHTS.tools_fts' },
  { name: 'id', rule: 'then the lower id, byte by byte' },
];

/** The name tiers, best first; matches outside both are ordered by bm25 alone. */
export const NAME_TIERS = { exact: 0, prefix: 1, none: 2 } as const;

/** bm25's weight of each column of the full-text tables: name > title > description > the rest. */
export const FTS_WEIGHTS: { readonly [T in FtsTable]: Readonly<Record<FtsColumn<T>, number>> } = {
  servers_fts: { name: 10, title: 8, description: 3, categories: 2, tools: 1 },
  tools_fts: { name: 10, title: 6, description: 2, server: 1 },
};

/** The weights of `table`'s columns, in table order (as FTS5's bm25() takes them). */
export function weightsOf(table: FtsTable): number[] {
  const weights: Readonly<Record<string, number>> = FTS_WEIGHTS[table];
  return FTS_COLUMNS[table].map((column) => weights[column] ?? 1);
}

/** bm25's constants, as FTS5 fixes them. */
export const BM25 = { k1: 1.2, b: 0.75 } as const;

/** The tokenizer the catalog's FTS5 tables declare (migration 001 keeps its own copy: it is history). */
export const FTS_TOKENIZER = 'unicode61 remove_diacritics 2';

/**
 * PostgreSQL's stand-in for bm25: ts_rank's weights of the tsvector classes D, C, B, A (the
 * migration puts name in A, title in B, description in C, the rest in D). Its order is close to
 * bm25's, not equal: only the name tiers and totals agree with the other engines.
 */
export const TS_RANK_WEIGHTS = [0.15, 0.3, 0.8, 1.0] as const;
