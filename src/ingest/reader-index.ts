/**
 * The search index a catalog write builds for the instances that serve the catalog: built inside
 * the write's transaction and saved as its snapshot, so once the write commits every instance
 * loads it, where each would otherwise answer searches from SQL while it built its own.
 */
import { saveIndexSnapshot } from '../search/index.js';
import type { CatalogWriter } from '../store/index.js';

/** The index costs the write memory, so past this many servers each instance builds its own instead. */
export const INDEXED_FOR_READERS_MAX = 150_000;

/** Builds and saves the index of the catalog as `writer` has written it, for a catalog of `servers` servers not past the limit. */
export async function saveIndexForReaders(writer: CatalogWriter, servers: number): Promise<void> {
  if (servers > INDEXED_FOR_READERS_MAX) return;
  const { generation, source } = await writer.searchSource();
  await saveIndexSnapshot(source, generation);
}
