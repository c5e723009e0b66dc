/**
 * Rate-limit counters kept in the database's `rate_limits` table, for SQLite (PostgreSQL's are
 * rate-limiter-flexible's RateLimiterPostgres on the same table). One statement adds to a
 * counter, or starts it afresh once its window has passed, and returns it: atomic on its own.
 * rate-limiter-flexible's RateLimiterSQLite does not fit: through knex it accepts only a client
 * named `sqlite3` (ours is the class of sqlite-client.ts), and it gives the connection back to
 * the pool before its savepoint's statements have run, so they could land inside a catalog
 * write's transaction on SQLite's one connection.
 */
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import { rowsOf, type Db } from './db.js';

/** What the service asks of a limiter: take points for a key (rejects with a RateLimiterRes beyond the limit), give some back. */
export type Limiter = Pick<RateLimiterAbstract, 'consume' | 'reward'>;

export interface CounterSpec {
  readonly keyPrefix: string;
  readonly points: number;
  /** Window, in seconds. */
  readonly duration: number;
}

/** Counters whose window ended this long ago are deleted now and then. */
const STALE_MS = 3_600_000;
/** One consume in this many also deletes stale counters. */
const SWEEP_EVERY = 500;

const ADD = `INSERT INTO rate_limits (key, points, expire) VALUES (?, ?, ?)
  ON CONFLICT (key) DO UPDATE SET
    points = CASE WHEN rate_limits.expire > ? THEN rate_limits.points + excluded.points ELSE excluded.points END,
    expire = CASE WHEN rate_limits.expire > ? THEN rate_limits.expire ELSE excluded.expire END
  RETURNING points, expire`;

/**
 * A limiter on `db`'s `rate_limits` table; `insurance` answers while the database does not
 * (a write lock held past the busy timeout), as PostgreSQL's limiter does.
 */
export function tableRateLimiter(db: Db, spec: CounterSpec, insurance: Limiter): Limiter {
  let consumed = 0;
  const add = async (key: string, points: number): Promise<{ points: number; msLeft: number }> => {
    const now = Date.now();
    const [row] = rowsOf<{ points: number | string; expire: number | string }>(await db.raw(ADD, [`${spec.keyPrefix}:${key}`, points, now + spec.duration * 1000, now, now]));
    if (!row) throw new Error('rate_limits: the counter was not returned');
    return { points: Number(row.points), msLeft: Math.max(0, Number(row.expire) - now) };
  };
  const sweep = async (): Promise<void> => {
    consumed += 1;
    if (consumed % SWEEP_EVERY === 0) await db('rate_limits').where('expire', '<', Date.now() - STALE_MS).delete();
  };
  return {
    async consume(key, points = 1) {
      let counter: { points: number; msLeft: number };
      try {
        counter = await add(String(key), points);
        await sweep();
      } catch {
        return insurance.consume(key, points);
      }
      const result = new RateLimiterRes(Math.max(0, spec.points - counter.points), counter.msLeft, counter.points, counter.points === points);
      if (counter.points > spec.points) throw result;
      return result;
    },
    async reward(key, points = 1) {
      try {
        await add(String(key), -points);
      } catch {
        await insurance.reward(key, points);
      }
      return new RateLimiterRes();
    },
  };
}
