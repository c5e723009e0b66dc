/** Endpoint checks and sync runs: what the monitor and `sextant sync` remember. */
import type { components } from '../../generated/openapi.js';
import { isObject } from '../json.js';
import { dialectOf, rowsOf, selectPrepared, type Db } from './db.js';

export type EndpointState = components['schemas']['EndpointState'];
type Cut = components['schemas']['Cut'];

export interface EndpointCheck {
  readonly serverId: string;
  readonly url: string;
  readonly checkedAt: string;
  readonly state: EndpointState;
  readonly httpStatus: number | null;
  readonly latencyMs: number | null;
  readonly protocolVersion: string | null;
  readonly toolCount: number | null;
  readonly error: string | null;
  /** What the check cut from the endpoint's answer; null (or absent) when unknown, e.g. recorded before cuts were. */
  readonly cuts?: readonly Cut[] | null;
}

export interface RemoteEndpoint {
  readonly serverId: string;
  readonly url: string;
  readonly host: string;
  readonly transport: 'streamable-http' | 'sse';
}

export interface MonitorStore {
  /**
   * Brings the monitor's schedule in line with the catalog's remote endpoints (the only URLs the
   * monitor ever probes); new ones are due at once.
   */
  scheduleEndpoints(): Promise<void>;
  /**
   * Claims up to `limit` endpoints due at `now` for `worker` and makes them due again at `nextDue`,
   * so no other instance claims them before then. On PostgreSQL rows another instance is claiming
   * are skipped (FOR UPDATE SKIP LOCKED), never waited for or claimed twice.
   */
  claimDue(worker: string, now: string, nextDue: string, limit: number): Promise<RemoteEndpoint[]>;
  recordCheck(check: EndpointCheck, keep: number): Promise<void>;
  /** How many checks this store has recorded (this process's monitor): what was read of checks before is older. */
  checksRecorded(): number;
  /** Checks of a server's endpoints, newest first, at most `limit` per endpoint. */
  recentChecks(serverId: string, limit: number): Promise<EndpointCheck[]>;
  /** The same for several servers, read together: by server id. */
  recentChecksOf(serverIds: readonly string[], limit: number): Promise<Map<string, EndpointCheck[]>>;
  /** When the last successful sync from `upstream` started, if any. */
  lastSyncStart(upstream: string): Promise<string | null>;
  /**
   * Makes the next sync of every upstream a full one (a `reset` run after its last complete one):
   * the catalog policy admits servers it removed before, whose records an incremental sync would skip.
   */
  resetSyncCursors(at: string, reason: string): Promise<void>;
  /** Records that a `sync` from `upstream` (or an `ingest` of files, named there) started: the run's id. */
  startRun(command: 'sync' | 'ingest', upstream: string, at: string): Promise<number>;
  finishRun(id: number, at: string, status: 'complete' | 'failed', records: number, error: string | null): Promise<void>;
  /** Catalogued remote endpoints by the state of their latest check; `unchecked` counts those scheduled but never checked. */
  endpointStates(): Promise<Record<string, number>>;
  /** Runs by command and status, with the start of each command's last complete run. */
  catalogRuns(): Promise<Array<{ command: string; status: string; runs: number; lastSuccess: string | null }>>;
}

interface CheckRow {
  server_id: string; url: string; checked_at: string; state: EndpointState; http_status: number | null; latency_ms: number | null;
  protocol_version: string | null; tool_count: number | null; error: string | null; cuts: string | null;
}

export function createMonitorStore(db: Db): MonitorStore {
  let recorded = 0;
  return {
    scheduleEndpoints: () => scheduleEndpoints(db),
    claimDue: (worker, now, nextDue, limit) => claimDue(db, worker, now, nextDue, limit),
    checksRecorded: () => recorded,
    async recordCheck(check, keep) {
      await recordCheck(db, check, keep);
      // Counted once committed: a read made after this sees the check.
      recorded += 1;
    },
    async recentChecks(serverId, limit) {
      // One server's, a page's read: the same text every time, so SQLite prepares it once.
      const rows = await selectPrepared<CheckRow>(db, 'SELECT * FROM endpoint_checks WHERE server_id = ? ORDER BY url, checked_at DESC', [serverId]);
      return latestOf([serverId], rows, limit).get(serverId) ?? [];
    },
    async recentChecksOf(serverIds, limit) {
      if (serverIds.length === 0) return new Map();
      const rows: CheckRow[] = await db('endpoint_checks')
        .whereIn('server_id', [...new Set(serverIds)])
        .orderBy([{ column: 'server_id' }, { column: 'url' }, { column: 'checked_at', order: 'desc' }])
        .select('*');
      return latestOf(serverIds, rows, limit);
    },
    async lastSyncStart(upstream) {
      const row = await db('sync_runs').where({ command: 'sync', upstream }).whereIn('status', ['complete', 'reset']).orderBy([{ column: 'started_at', order: 'desc' }, { column: 'id', order: 'desc' }]).first('started_at', 'status');
      return row?.status === 'complete' ? row.started_at : null;
    },
    async resetSyncCursors(at, reason) {
      const upstreams: string[] = await db('sync_runs').where({ command: 'sync', status: 'complete' }).distinct('upstream').pluck('upstream');
      if (upstreams.length > 0) await db('sync_runs').insert(upstreams.map((upstream) => ({ command: 'sync', upstream, started_at: at, finished_at: at, status: 'reset', records: 0, error: reason })));
    },
    async startRun(command, upstream, at) {
      const [row] = await db('sync_runs').insert({ command, upstream, started_at: at, status: 'running' }).returning('id');
      return typeof row === 'object' ? Number(row.id) : Number(row);
    },
    async finishRun(id, at, status, records, error) {
      await db('sync_runs').where({ id }).update({ finished_at: at, status, records, error });
    },
    async endpointStates() {
      // Each endpoint's newest check, found through the (server_id, url, checked_at) index.
      const rows = rowsOf<{ state: string; endpoints: number | string }>(await db.raw(
        `SELECT coalesce(c.state, 'unchecked') AS state, count(*) AS endpoints FROM monitor_schedule s
         LEFT JOIN endpoint_checks c ON c.server_id = s.server_id AND c.url = s.url
           AND c.checked_at = (SELECT max(d.checked_at) FROM endpoint_checks d WHERE d.server_id = s.server_id AND d.url = s.url)
         GROUP BY coalesce(c.state, 'unchecked')`,
      ));
      return Object.fromEntries(rows.map((row) => [row.state, Number(row.endpoints)]));
    },
    async catalogRuns() {
      const rows: Array<{ command: string; status: string; runs: number | string; last: string | null }> = await db('sync_runs')
        .select('command', 'status')
        .count({ runs: '*' })
        .max({ last: 'started_at' })
        .groupBy('command', 'status');
      return rows.map((row) => ({ command: row.command, status: row.status, runs: Number(row.runs), lastSuccess: row.status === 'complete' ? row.last : null }));
    },
  };
}

async function scheduleEndpoints(db: Db): Promise<void> {
  await db.transaction(async (trx) => {
    await trx.raw(`DELETE FROM monitor_schedule WHERE NOT EXISTS
      (SELECT 1 FROM remotes r WHERE r.server_id = monitor_schedule.server_id AND r.url = monitor_schedule.url)`);
    // WHERE true: SQLite needs it to tell the upsert's ON from a join's.
    await trx.raw(`INSERT INTO monitor_schedule (server_id, url, host, transport, due_at)
      SELECT server_id, url, min(host), min(transport), '' FROM remotes WHERE true GROUP BY server_id, url
      ON CONFLICT (server_id, url) DO NOTHING`);
  });
}

/** One statement: picks the due rows (by host, so one host's endpoints come together) and moves them on. */
async function claimDue(db: Db, worker: string, now: string, nextDue: string, limit: number): Promise<RemoteEndpoint[]> {
  const lock = dialectOf(db) === 'postgres' ? 'FOR UPDATE SKIP LOCKED' : '';
  const rows = rowsOf<{ server_id: string; url: string; host: string; transport: RemoteEndpoint['transport'] }>(
    await db.raw(
      `WITH due AS (SELECT server_id, url FROM monitor_schedule WHERE due_at <= ? ORDER BY host, url, server_id LIMIT ? ${lock})
      UPDATE monitor_schedule SET due_at = ?, claimed_by = ? FROM due
      WHERE monitor_schedule.server_id = due.server_id AND monitor_schedule.url = due.url
      RETURNING monitor_schedule.server_id, monitor_schedule.url, monitor_schedule.host, monitor_schedule.transport`,
      [now, limit, nextDue, worker],
    ),
  );
  return rows
    .map((r) => ({ serverId: r.server_id, url: r.url, host: r.host, transport: r.transport }))
    .sort((a, b) => a.host.localeCompare(b.host) || a.url.localeCompare(b.url));
}

/** Stores a check and lets all but the newest `keep` of its endpoint go. */
async function recordCheck(db: Db, check: EndpointCheck, keep: number): Promise<void> {
  await db.transaction(async (trx) => {
    await trx('endpoint_checks').insert({
      server_id: check.serverId, url: check.url, checked_at: check.checkedAt, state: check.state, http_status: check.httpStatus,
      latency_ms: check.latencyMs, protocol_version: check.protocolVersion, tool_count: check.toolCount, error: check.error,
      cuts: check.cuts ? JSON.stringify(check.cuts) : null,
    });
    const older = trx('endpoint_checks').where({ server_id: check.serverId, url: check.url }).orderBy('checked_at', 'desc').offset(keep).select('id');
    await trx('endpoint_checks').whereIn('id', older).delete();
  });
}

/** Each server's latest `limit` checks per endpoint URL, newest first, from rows ordered by server, URL and time (newest first). */
function latestOf(serverIds: readonly string[], rows: readonly CheckRow[], limit: number): Map<string, EndpointCheck[]> {
  const out = new Map<string, EndpointCheck[]>(serverIds.map((id) => [id, []]));
  const perUrl = new Map<string, number>();
  for (const row of rows) {
    const key = `${row.server_id}\n${row.url}`;
    const seen = perUrl.get(key) ?? 0;
    perUrl.set(key, seen + 1);
    if (seen >= limit) continue;
    out.get(row.server_id)?.push({
      serverId: row.server_id, url: row.url, checkedAt: row.checked_at, state: row.state, httpStatus: row.http_status, latencyMs: row.latency_ms,
      protocolVersion: row.protocol_version, toolCount: row.tool_count, error: row.error, cuts: cutsOf(row.cuts),
    });
  }
  return out;
}

/** The stored cuts of a check; null when the check predates them. */
function cutsOf(text: string | null): Cut[] | null {
  if (text === null) return null;
  const parsed: unknown = JSON.parse(text);
  return Array.isArray(parsed) ? parsed.filter(isCut) : null;
}

function isCut(value: unknown): value is Cut {
  return isObject(value) && typeof value.cap === 'string' && typeof value.limit === 'number' && typeof value.note === 'string';
}
