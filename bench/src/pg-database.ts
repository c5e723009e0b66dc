/**
 * A PostgreSQL database of the bench's own for one catalog size (BENCH_DB=pg|both): created empty
 * on the server BENCH_PG_URL names, dropped at the end of that size.
 */
import { createScratchDatabase, type ScratchDatabase } from '../../scripts/pg-scratch-database.js';

export type BenchPgDatabase = ScratchDatabase;

/** A fresh database `sextant_bench_<size>_<pid>`. */
export function createPgDatabase(adminUrl: string, size: number): Promise<BenchPgDatabase> {
  return createScratchDatabase(adminUrl, `sextant_bench_${size}_${process.pid}`);
}
