/**
 * The catalog's two full-text tables, in one place: their weighted columns (in table order, with
 * bm25's weight for each) and their tokenizer. The writer fills them, SQL ranks with them, and
 * the in-memory search index reads and weighs them the same way.
 */
export const FTS_TABLES = {
  servers_fts: { columns: ['name', 'title', 'description', 'categories', 'tools'], weights: [10.0, 8.0, 3.0, 2.0, 1.0] },
  tools_fts: { columns: ['name', 'title', 'description', 'server'], weights: [10.0, 6.0, 2.0, 1.0] },
} as const;

export type FtsTable = keyof typeof FTS_TABLES;

/** The tokenizer migration 001 declared for both tables (the migration keeps its own copy: it is history). */
export const FTS_TOKENIZER = 'unicode61 remove_diacritics 2';
