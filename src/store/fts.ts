/**
 * The catalog's two full-text tables as stored: their text columns, in table order. The writer
 * fills them in this order; the search engines read them in it and weigh each column by the
 * ranking rules (src/search/ranking.ts).
 */
export const FTS_COLUMNS = {
  servers_fts: ['name', 'title', 'description', 'categories', 'tools'],
  tools_fts: ['name', 'title', 'description', 'server', 'schema'],
} as const;

export type FtsTable = keyof typeof FTS_COLUMNS;

/** A text column of one full-text table. */
export type FtsColumn<T extends FtsTable> = (typeof FTS_COLUMNS)[T][number];
