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

/**
 * The matching strategy (as Meilisearch's `matchingStrategy`, Elasticsearch's
 * `minimum_should_match`): what a relevance search with words matches, and in which groups.
 */
export const MATCHING_STRATEGY: readonly RankingRule[] = [
  { name: 'meaningful words', rule: 'the query\'s words less STOP_WORDS (all of them when nothing else is left), the first MAX_TERMS distinct ones (query.ts)' },
  { name: 'word forms', rule: 'each word matches as a prefix, and so does its stem (STEM_RULES): a word and its stem are one query word, counted once in bm25 by its stem; the word as typed adds TYPED_WEIGHT of its own part' },
  { name: 'synonyms', rule: 'a word (or its stem) listed in SYNONYMS also matches the words it stands for, as prefixes: a record holding one of them holds the query word' },
  { name: 'absent words', rule: 'a word that no indexed word starts with, nor its stem or a synonym, is matched by its typos (TYPOS); with none it is left out of the search, never zeroing the answer' },
  { name: 'some words', rule: 'a document matches when it holds at least one query word; those that hold every one (MATCH_RULE) come first, by the ranking rules; the others follow by bm25, which sums what each word held gives, rarer words giving more (its idf)' },
];

/** What a full match is: the documents ranked first, by the ranking rules and their name tiers. */
export const MATCH_RULE =
  'every query word left in the search matches, as a prefix (or its stem as a prefix, or one of its typos), a word of the weighted columns (FTS_WEIGHTS); words are split and folded by FTS_TOKENIZER';

/** Query words beyond this many distinct meaningful ones are ignored (a pasted task keeps its first ones). */
export const MAX_TERMS = 32;

/**
 * English words that say nothing of what a record does, dropped from a query unless nothing else
 * is left ("how do I read my calendar" searches `read calendar`): Snowball's English list (its
 * words without apostrophes), and the words requests are phrased with (want, need, please…).
 * Tool verbs (get, list, find, create, send…) are not here: they are what tools are named after.
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  ('a an the and or but nor if then else so than too very just also only not no yes ' +
    'of to in on at by for with from into onto about over under as via per ' +
    'is are was were be been being am do does did doing have has had having ' +
    'i me my mine myself we us our ours you your yours he him his she her it its they them their ' +
    'this that these those there here what which who whom whose when where why how ' +
    'can could would should will shall may might must ' +
    'want wants wanted need needs like please help let lets able way something anything some any all each every ' +
    'using use ' +
    'because until while against between through during before after above below up down out off again further once both few more most other such own same ' +
    'ourselves yourself yourselves himself herself itself themselves theirs hers ought').split(' '),
);

/**
 * Synonyms, one way: a query word (or its stem) → the words records use for it, each matched as
 * a prefix beside the word. Two kinds only, each a translation rather than a judgement: short
 * forms people type (`k8s`, `repo`, `db`), and the words of other languages for the commonest
 * jobs (`correo` finds email, `天气` weather), since the catalog is written in English. English
 * words of related meaning are not here: on requests written apart from the list they found no
 * more (docs/decisions/search-matching.md). A word keeps at most MAX_SYNONYMS; a synonym its word
 * or stem already starts with is not added.
 */
export const SYNONYMS: Readonly<Record<string, readonly string[]>> = synonymsOf([
  // Short forms.
  ['pr prs', 'pull'],
  ['repo repos', 'repositor'],
  ['db', 'database'],
  ['pg', 'postgres'],
  ['k8s', 'kubernetes'],
  // Other languages, for the commonest jobs.
  ['correo courriel 邮件', 'email mail'],
  ['enviar envoyer senden 发送 送信', 'send'],
  ['tiempo clima météo meteo wetter 天气 天気', 'weather forecast'],
  ['buscar rechercher recherche suche suchen internetsuche 搜索 検索', 'search'],
  ['noticias nouvelles actualités nachrichten 新闻 ニュ', 'news'],
  ['traducir traduire übersetzen 翻译 翻訳', 'translat'],
  ['imagen imagenes bild bilder 图片 图像 画像', 'image'],
  ['generar générer generieren 生成', 'generat'],
  ['股票 株価 acciones aktie aktien', 'stock quote'],
  ['documento dokument 文档 文書', 'document'],
  ['archivo fichier datei 文件', 'file'],
  ['precio prix preis 价格 価格', 'price'],
  ['kommentieren commenter comentar 评论', 'comment'],
  ['火车 高铁 列车 电车', 'train'],
  ['地图 地図 mapa carte karte', 'map'],
  ['餐厅 restaurante', 'restaurant'],
]);

/**
 * What the word as typed adds to a record's relevance, as a share of its own bm25 part, beside
 * its stem's part, for a word with a stem (STEM_RULES): relevance = bm25 of the words, each by
 * its stem (or itself), its synonyms and typos, + TYPED_WEIGHT × bm25 of the stemmed words as
 * typed. A record holding `calendars` ranks above one holding only `calendar` for "calendars",
 * but an inflected word no longer counts nearly twice against one without a stem (a brand, a
 * noun in the singular): with the whole part (1) it did, and the labelled sets found less
 * (docs/decisions/search-matching.md).
 */
export const TYPED_WEIGHT = 0.25;

/** Synonyms a query word keeps at most. */
export const MAX_SYNONYMS = 4;

/** The table of SYNONYMS from its rows: each word of a row's first list → the second list's words. */
function synonymsOf(rows: readonly (readonly [string, string])[]): Record<string, readonly string[]> {
  const table: Record<string, string[]> = {};
  for (const [words, stands] of rows) {
    for (const word of words.split(' ')) table[word] = [...new Set([...(table[word] ?? []), ...stands.split(' ')])];
  }
  return table;
}

/**
 * Stemming, the same on every engine: a query word's stem is matched as a prefix beside the word
 * itself, so the stem is always a prefix of the word (a suffix taken off, a doubled last letter
 * undone) and a record's inflected forms all start with it: `calendars` → `calendar`, `scraping`
 * → `scrap` (scrape, scraper), `queries` → `quer` (query). Only ASCII words of MIN_STEMMED
 * letters or more; the first rule whose suffix ends the word applies; a stem shorter than
 * `minStem` letters is no stem. The word is scored by its stem's phrase, which every form holds;
 * a document that holds the word as typed adds TYPED_WEIGHT of the typed phrase's part, so it
 * ranks above one that holds only the stem.
 */
export interface StemRule extends RankingRule {
  readonly suffix: string;
  /** Suffixes (endings of the word) this rule leaves alone. */
  readonly unless?: readonly string[];
  /** What replaces the suffix. */
  readonly by: string;
  /** Letters the stem keeps at least, before a doubled last letter is undone. */
  readonly minStem: number;
  /** Undo a doubled last consonant (running → run); never l, s or z (calling, passing). */
  readonly undouble?: boolean;
  /** Letters the word has at least. */
  readonly minLength?: number;
  /** The letter before the suffix may not be one of these (a vowel before `y`: key, play). */
  readonly notAfter?: string;
}

export const MIN_STEMMED = 4;

export const STEM_RULES: readonly StemRule[] = [
  { name: 'sses', suffix: 'sses', by: 'ss', minStem: 4, rule: 'addresses → address' },
  { name: 'ies', suffix: 'ies', by: '', minStem: 4, rule: 'queries → quer, libraries → librar' },
  { name: 'ches', suffix: 'ches', by: 'ch', minStem: 4, rule: 'searches → search, patches → patch' },
  { name: 'shes', suffix: 'shes', by: 'sh', minStem: 4, rule: 'pushes → push' },
  { name: 'xes', suffix: 'xes', by: 'x', minStem: 3, rule: 'boxes → box, indexes → index' },
  { name: 's', suffix: 's', by: '', minStem: 3, unless: ['ss', 'us', 'is'], rule: 'calendars → calendar, converts → convert, files → file' },
  { name: 'ing', suffix: 'ing', by: '', minStem: 4, undouble: true, rule: 'scraping → scrap, sending → send, running → run' },
  { name: 'ed', suffix: 'ed', by: '', minStem: 4, undouble: true, rule: 'created → creat, stopped → stop' },
  { name: 'e', suffix: 'e', by: '', minStem: 4, minLength: 5, rule: 'scrape → scrap (scraping), create → creat (creating, creation)' },
  { name: 'y', suffix: 'y', by: '', minStem: 4, minLength: 5, notAfter: 'aeiou', rule: 'query → quer (queries), library → librar' },
];

/**
 * What a server search matches, in turn: the first step that matches anything answers, and the
 * ranking rules order its matches (the name tiers, then bm25, then id). A server's reverse-DNS
 * namespace (`io.github.someone/` in `io.github.someone/weather`) is not in the indexed text:
 * it matches no word (step 2), only a search for the namespace itself (step 1).
 */
export const MATCH_STEPS: readonly RankingRule[] = [
  { name: 'name prefix', rule: 'a query shaped as a namespace or a name (query.ts: namePrefixOf) matches the servers one of whose match names starts with it' },
  { name: 'words', rule: 'the matching strategy (MATCHING_STRATEGY): documents holding at least one query word, those holding every one (MATCH_RULE) first' },
];

/**
 * Typo tolerance (DESIGN.md "Search quality"), as Meilisearch's defaults: one edit (an insertion,
 * deletion, substitution or transposition of adjacent letters) from 5 letters, two from 9, for a
 * word of ASCII letters and digits once its diacritics are taken off (so every engine splits it
 * alike: electrónico is a typo of electronic); a word matches at most `maxTerms` indexed words.
 * Typos are found only for a word that no indexed word starts with (nor its stem), so a word that
 * matches is never widened.
 */
export const TYPOS = { oneEdit: 5, twoEdits: 9, maxTerms: 16 } as const;

/**
 * How a relevance search orders servers, first rule first. A server with a quality flag
 * (src/catalog/quality.ts) is in no name tier, and after the tiers comes below every unflagged
 * server that holds as many of the query's words (all, or some: MATCHING_STRATEGY), before bm25.
 * Test and template copies are many and are named like what they copy (`email-mcp`, `template`):
 * in a name tier they took the place the tier keeps for the server the user named; and their
 * texts are short, which bm25 favours, so after bm25 the rule would order nothing. It never
 * lifts a server that holds fewer of the query's words.
 */
export const SERVER_RANKING_RULES: readonly RankingRule[] = [
  { name: 'exact name', rule: 'an unflagged server one of whose match names equals the query text (NAME_TIERS.exact)' },
  { name: 'prefix name', rule: 'then an unflagged server one of whose match names starts with the query text (NAME_TIERS.prefix)' },
  { name: 'quality', rule: 'then, among the servers holding every word and among those holding some, each part apart: a server without a quality flag first' },
  { name: 'sources', rule: 'within each name tier: the server more sources list first' },
  { name: 'name length', rule: 'within each name tier: then the shorter display name (sort_name, in characters)' },
  { name: 'bm25', rule: 'then the higher bm25 relevance, with FTS_WEIGHTS.servers_fts (a stemmed word by its stem, plus TYPED_WEIGHT of the word as typed)' },
  { name: 'id', rule: 'then the lower id, byte by byte' },
];

/** How a relevance search orders tools, first rule first. */
export const TOOL_RANKING_RULES: readonly RankingRule[] = [
  { name: 'exact name', rule: 'a tool whose name (sort_name) equals the query text' },
  { name: 'prefix name', rule: 'then a tool whose name starts with the query text' },
  { name: 'bm25', rule: 'then the higher bm25 relevance, with FTS_WEIGHTS.tools_fts (a stemmed word by its stem, plus TYPED_WEIGHT of the word as typed)' },
  { name: 'id', rule: 'then the lower id, byte by byte' },
];

/**
 * The other sorts (a-z, z-a, newest, oldest, tools, endpoints): plain orders, which only the SQL
 * engines answer, each from an index in its exact order (migration 025).
 */
export const BROWSE_RULES: readonly RankingRule[] = [
  { name: 'quality', rule: 'a server (or tool) without a quality flag first, in every sort: test and template records are kept off the first pages' },
  { name: 'sort', rule: 'then the sort\'s own order; a-z and z-a compare the browse name, the display name lower-cased without leading punctuation (src/catalog/browse-name.ts)' },
  { name: 'id', rule: 'then the id (z-a: descending)' },
];

/** The name tiers, best first; matches outside both are ordered by bm25 alone. */
export const NAME_TIERS = { exact: 0, prefix: 1, none: 2 } as const;

/**
 * bm25's weight of each column of the full-text tables: a word in a name or title counts twice.
 * Heavier name weights let one word of a sentence that happens to be in a name ("put" in
 * put_object) outrank a record matching the whole task (docs/decisions/search-matching.md).
 */
export const FTS_WEIGHTS: { readonly [T in FtsTable]: Readonly<Record<FtsColumn<T>, number>> } = {
  servers_fts: { name: 2, title: 2, description: 1, categories: 1, tools: 1 },
  tools_fts: { name: 2, title: 2, description: 1, server: 1, schema: 1 },
};

/** The weights of `table`'s columns, in table order (as FTS5's bm25() takes them). */
export function weightsOf(table: FtsTable): number[] {
  const weights: Readonly<Record<string, number>> = FTS_WEIGHTS[table];
  return FTS_COLUMNS[table].map((column) => weights[column] ?? 1);
}

/** bm25's constants, as FTS5 fixes them. */
export const BM25 = { k1: 1.2, b: 0.75 } as const;

/** The tokenizer the catalog's FTS5 tables declare (migration 001 holds its own copy, as it was applied). */
export const FTS_TOKENIZER = 'unicode61 remove_diacritics 2';

/**
 * PostgreSQL's stand-in for bm25: ts_rank's weights of the tsvector classes D, C, B, A (the
 * migration puts name in A, title in B, description in C, the rest in D). Its order is close to
 * bm25's, not equal: only the name tiers and totals agree with the other engines.
 */
export const TS_RANK_WEIGHTS = [0.15, 0.3, 0.8, 1.0] as const;
