/** Which database the store talks to: where SQL differs, the store (and its migrations) branch on this. */
import type { Knex } from 'knex';

export type Dialect = 'sqlite' | 'postgres';

/** Which database a knex instance talks to. */
export function dialectOf(db: Knex): Dialect {
  return db.client.config.client === 'pg' ? 'postgres' : 'sqlite';
}
