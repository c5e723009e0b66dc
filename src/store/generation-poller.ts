/**
 * The content generation as this process sees it: its own writes at once, other processes' and
 * instances' within a short while, by reading the committed row again once the last read is stale.
 */
import { readContentGeneration } from './content-generation.js';
import type { Db } from './db.js';

/** How long a read of the committed generation is current. */
const GENERATION_TTL_MS = 250;

export interface GenerationPoller {
  /** `writes:committed`, the committed part at most GENERATION_TTL_MS old; `readNow` reads the row first. */
  current(readNow?: boolean): Promise<string>;
  /** Counts a write this process committed (seen at once). */
  noteWrite(): void;
}

/** The committed part of a generation `current` gave: what every instance and process shares. */
export function committedPart(generation: string): string {
  return generation.slice(generation.indexOf(':') + 1);
}

/** Polls the row on `db` (on PostgreSQL a connection of its own, not behind the pool's queue). */
export function pollGeneration(db: Db): GenerationPoller {
  let writes = 0;
  let committed = '0';
  let checkedAt = 0;
  /** The last read's failure, repeated without a query until it is stale (an outage costs one read per TTL). */
  let failure: { error: unknown; at: number } | null = null;
  const readCommitted = async (): Promise<void> => {
    try {
      committed = await readContentGeneration(db);
      checkedAt = Date.now();
      failure = null;
    } catch (error) {
      failure = { error, at: Date.now() };
      throw error;
    }
  };
  /** The read under way once the last is stale: requests arriving meanwhile share it rather than queue their own. */
  let reading: Promise<void> | null = null;
  return {
    async current(readNow = false) {
      // A read now starts after the call, so it sees every commit made before it.
      if (readNow) await readCommitted();
      else if (Date.now() - checkedAt > GENERATION_TTL_MS) {
        if (failure && Date.now() - failure.at <= GENERATION_TTL_MS) throw failure.error;
        await (reading ??= readCommitted().finally(() => (reading = null)));
      }
      return `${writes}:${committed}`;
    },
    noteWrite() {
      writes += 1;
    },
  };
}
