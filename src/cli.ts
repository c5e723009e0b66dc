/**
 * The `sextant` CLI (started by main.ts): one function per subcommand, each building what it
 * needs from the same environment variables (src/config.ts).
 */
import cluster from 'node:cluster';
import { once } from 'node:events';
import { basename } from 'node:path';
import type { Server } from 'node:http';
import { parseArgs } from 'node:util';
import { setFlagsFromString } from 'node:v8';
import cliProgress from 'cli-progress';
import { ConfigError, loadConfig, redactUrl, type Config } from './config.js';
import { createService } from './compose.js';
import { isLoopbackHost } from './net/host-names.js';
import { loadDemoCatalogIfEmpty } from './ingest/demo.js';
import { curate } from './ingest/curation.js';
import { ingest, type IngestSummary } from './ingest/ingest-service.js';
import { IngestError } from './ingest/upstream.js';
import { createLogger, type Logger } from './logger.js';
import { createStore, databaseFailure, type Store } from './store/index.js';
import { auditCommand, tokensCommand } from './auth/access-commands.js';
import { PolicyError, type CatalogPolicy } from './catalog/catalog-policy.js';
import { republishAll } from './publish/publish-service.js';
import { policyCommand } from './curation/policy-commands.js';
import { readPolicyFile } from './curation/policy-file.js';
import { servePolicy } from './curation/policy-reload.js';
import { holdServeLock } from './store/serve-lock.js';
import { BackupError, backupSqlite, restoreSqlite } from './store/backup.js';
import { exitCodeOf, stopOnSignals, type StopSignals } from './stop-signals.js';
import { OFFICIAL_REGISTRY, SyncError, sync } from './ingest/sync.js';
import { runMonitorPass, scheduleMonitor } from './monitor/monitor.js';
import { NetError } from './net/index.js';
import { openMetricsPort } from './metrics/metrics-server.js';
import { servePrimary, shareMetrics, workerRole, workerStopped, type WorkerRole } from './serve-cluster.js';

const USAGE = `Usage: sextant <command>

Commands:
  serve                   migrate, load the demo catalog into an empty catalog (DEMO_CATALOG=auto), serve HTTP,
                          and check remote endpoints every MONITOR_INTERVAL seconds (0 = off)
  migrate                 apply database migrations
  ingest <file...>        ingest upstream registry files (official, Docker catalog, toolsdk; detected from content)
  sync [--upstream URL] [--full]
                          pull the official registry API (default ${OFFICIAL_REGISTRY}), incrementally unless --full
  monitor [--once]        check every catalogued remote endpoint, once or every MONITOR_INTERVAL seconds
  rescan                  scan every stored tool definition again by today's rules (findings, fingerprints), all or nothing
  backup <file>           write a consistent copy of the SQLite catalog to a new file, while it serves
  restore <file>          check a backup and put it in the SQLite catalog's place (no serve may run on it)
  tokens create NAME --scope SCOPE [--scope …] [--expires 90d]
                          make an access token (scopes: read, publish:<namespace>/*, publish:<namespace>/<name>); printed once
  tokens list | tokens revoke NAME
                          list access tokens (never their secrets), or revoke one
  audit [--limit N]       print the audit log of publishes, status changes, tokens and policy reloads, newest first
  policy check [--policy FILE]
                          what the catalog policy (CATALOG_POLICY, or FILE) admits of the stored catalog, and which rule decided

Configuration comes from environment variables; see README.md.`;

async function main(argv: readonly string[]): Promise<number> {
  const { positionals, values } = parseArgs({
    args: [...argv],
    allowPositionals: true,
    options: { help: { type: 'boolean', short: 'h' }, once: { type: 'boolean' }, upstream: { type: 'string' }, scope: { type: 'string', multiple: true }, expires: { type: 'string' }, limit: { type: 'string' }, policy: { type: 'string' }, full: { type: 'boolean' } },
  });
  const [command, ...rest] = positionals;
  if (values.help || command === undefined || command === 'help') {
    console.log(USAGE);
    return command === undefined && !values.help ? 2 : 0;
  }
  const config = loadConfig();
  const logger = createLogger(config.logLevel);
  switch (command) {
    case 'serve': {
      if (config.workers > 1 && cluster.isPrimary) return servePrimary(config, logger);
      const role = workerRole();
      return serve(config, role ? logger.child({ worker: role.index }) : logger, role);
    }
    case 'migrate':
      return migrateOnly(config);
    case 'rescan':
      return rescan(config);
    case 'ingest':
      return ingestFiles(config, rest);
    case 'sync':
      return syncUpstream(config, logger, values.upstream, values.full === true);
    case 'monitor':
      return monitorCommand(config, logger, values.once === true);
    case 'backup':
    case 'restore':
      return backupCommand(command, config, rest);
    case 'tokens':
      return withMigratedStore(config, (store) => tokensCommand(store, rest, { scopes: values.scope ?? [], expires: values.expires }));
    case 'audit':
      return withMigratedStore(config, (store) => auditCommand(store, values.limit));
    case 'policy':
      return withMigratedStore(config, (store) => policyCommand(store, rest, values.policy ?? config.catalogPolicy));
    default:
      console.error(`unknown command "${command}"\n\n${USAGE}`);
      return 2;
  }
}

/** Serves on its own, or as one of the workers of serve-cluster.ts (`role`). */
async function serve(config: Config, logger: Logger, role: WorkerRole | null): Promise<number> {
  // A server's objects live for one request: requests queued behind cold searches must not teach
  // V8 to allocate every later request's objects in the old generation (docs/decisions/serve-v8-flags.md).
  setFlagsFromString('--no-allocation-site-pretenuring');
  // Collect a small live heap often rather than let garbage grow to several times it.
  setFlagsFromString('--heap-growing-percent=30');
  // --max-semi-space-size is read only when Node starts, so it is on the start script's command
  // line (package.json), with --expose-gc for the collection below.
  // A worker's primary has migrated, loaded the demo catalog and holds the serve lock.
  // A policy file that cannot be used stops the start: serving without it would show what it refuses.
  const initialPolicy = await readPolicyFile(config.catalogPolicy);
  let policyInForce = (): CatalogPolicy | null => initialPolicy;
  const service = await createService(config, logger, { workers: role?.background ?? true, metrics: config.metricsPort > 0, policy: () => policyInForce() });
  if (config.demoCatalog === 'auto' && role === null) {
    const summary = await loadDemoCatalogIfEmpty(service.store, initialPolicy);
    if (summary) logger.info({ servers: summary.added, tools: summary.tools }, 'loaded the demo catalog into the empty catalog');
  }
  const policy = await servePolicy({
    path: config.catalogPolicy, initial: initialPolicy, writes: role?.background ?? true, store: service.store, audit: service.audit, logger,
    // Ingest does not read published servers again: a changed policy catalogues again those it admits.
    afterCuration: async (next) => void (await republishAll(service.store, next)),
  });
  policyInForce = () => policy.current();
  const serveLock = role === null ? await holdServeLock(config.databaseUrl) : { alone: role.background, release: async () => undefined };
  if (!serveLock.alone && role === null) logger.warn({ database: redactUrl(config.databaseUrl) }, 'another sextant serve runs on this SQLite file: this one runs no endpoint monitor; run one serve per SQLite file');
  const stopMonitor = config.monitorInterval > 0 && serveLock.alone
    ? scheduleMonitor(config.monitorInterval, async () => logger.info(await runMonitorPass(service.store, service.net, logger, { clientVersion: service.version, intervalSeconds: config.monitorInterval, policy: policy.current() }), 'monitor pass'), logger)
    : () => undefined;
  // Server searches are fast from the first request: the servers' in-memory index is built
  // before serving (the tools' follows while it serves; SQL answers tool searches until then).
  await service.warmSearch();
  // The build's temporaries go now, before the first request, not in a collection under load.
  (globalThis as { gc?: () => void }).gc?.();
  const server = service.app.listen(config.port, config.host);
  await once(server, 'listening');
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : config.port;
  if (role) logger.info({ background: role.background, pid: process.pid }, 'worker is serving');
  else logger.info({ url: `http://${config.host}:${port}`, database: redactUrl(config.databaseUrl) }, 'sextant is serving');
  // A worker's metrics are gathered and served by its primary.
  if (role && service.metrics) shareMetrics(service.metrics.registry);
  const registry = role === null ? service.metrics?.registry : undefined;
  const metricsServer = registry ? await openMetricsPort(async () => ({ contentType: registry.contentType, text: await registry.metrics() }), config, logger) : null;
  if (!isLoopbackHost(config.host) && config.publicUrl === null && config.allowedHosts.length === 0) {
    logger.warn({ host: config.host }, 'bound beyond loopback without PUBLIC_URL or ALLOWED_HOSTS: requests by IP address are answered, requests by name get 403 host_not_allowed');
  }
  const signal = role ? await workerStopped() : String((await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]))[0] ?? '');
  logger.info({ signal, graceSeconds: config.shutdownGrace }, 'shutting down: finishing the requests in flight');
  service.beginStop();
  stopMonitor();
  policy.close();
  const finished = await drain(server, config.shutdownGrace * 1000);
  if (!finished) logger.warn({ graceSeconds: config.shutdownGrace }, 'requests still in flight after SHUTDOWN_GRACE: their connections were closed');
  metricsServer?.close();
  await service.close();
  await serveLock.release();
  return 0;
}

/**
 * Stops taking connections, closes the idle ones, and waits for the requests in flight (each
 * connection closes after its answer) until `graceMs`; then closes what is left. Whether all
 * finished in time.
 */
async function drain(server: Server, graceMs: number): Promise<boolean> {
  const closed = once(server, 'close');
  server.close();
  server.closeIdleConnections();
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), graceMs);
  });
  const finished = await Promise.race([closed.then(() => true as const), late]);
  clearTimeout(timer);
  if (!finished) {
    server.closeAllConnections();
    await closed;
  }
  return finished;
}

async function monitorCommand(config: Config, logger: Logger, onlyOnce: boolean): Promise<number> {
  const policy = await readPolicyFile(config.catalogPolicy);
  const service = await createService(config, logger);
  const pass = async (): Promise<void> => {
    // A one-off pass checks everything now; a scheduled one leaves what another instance just checked.
    const summary = await runMonitorPass(service.store, service.net, logger, { clientVersion: service.version, intervalSeconds: onlyOnce ? 0 : config.monitorInterval, policy });
    console.log(`checked ${summary.endpoints} endpoints: ${Object.entries(summary.states).map(([state, n]) => `${n} ${state}`).join(', ') || 'none'}; ${summary.catalogUpdates} servers got tools from their endpoints`);
  };
  try {
    if (onlyOnce || config.monitorInterval === 0) {
      if (!onlyOnce) console.error('MONITOR_INTERVAL is 0: checking once');
      await pass();
      return 0;
    }
    const stop = scheduleMonitor(config.monitorInterval, pass, logger);
    await Promise.race([once(process, 'SIGINT'), once(process, 'SIGTERM')]);
    stop();
    return 0;
  } finally {
    await service.close();
  }
}

async function syncUpstream(config: Config, logger: Logger, upstream: string | undefined, full: boolean): Promise<number> {
  const policy = await readPolicyFile(config.catalogPolicy);
  const service = await createService(config, logger);
  const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'sync [{bar}] {value} records, page {page}', stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
  const stop = stopOnSignals();
  try {
    bar?.start(0, 0, { page: 0 });
    const summary = await sync(service.store, service.net, {
      ...(upstream ? { upstream } : {}),
      signal: stop.signal,
      policy,
      full,
      onPage: (pages, records) => {
        bar?.setTotal(records);
        bar?.update(records, { page: pages });
      },
    });
    bar?.stop();
    console.log(`synced ${summary.pages} pages from ${summary.upstream}${summary.since ? ` (updated since ${summary.since})` : ''}: ${summaryLine(summary)}`);
    return 0;
  } catch (err) {
    bar?.stop();
    return runFailed('sync', err, stop);
  } finally {
    stop.release();
    await service.close();
  }
}

async function backupCommand(command: 'backup' | 'restore', config: Config, files: readonly string[]): Promise<number> {
  const [file, ...extra] = files;
  if (file === undefined || extra.length > 0) {
    console.error(`${command} takes one file`);
    return 2;
  }
  try {
    if (command === 'backup') {
      const made = await backupSqlite(config.databaseUrl, file);
      console.log(`backed up ${redactUrl(config.databaseUrl)} to ${made.file} (${made.bytes} bytes)`);
    } else {
      const restored = await restoreSqlite(config.databaseUrl, file);
      console.log(`restored ${restored.file} from ${file}: ${restored.servers} servers`);
    }
    return 0;
  } catch (err) {
    if (!(err instanceof BackupError)) throw err;
    console.error(`${command}: ${err.message}`);
    return 2;
  }
}

async function withMigratedStore(config: Config, work: (store: Store) => Promise<number>): Promise<number> {
  const store = createStore(config.databaseUrl);
  try {
    await store.migrate();
    return await work(store);
  } finally {
    await store.close();
  }
}

async function migrateOnly(config: Config): Promise<number> {
  const store = createStore(config.databaseUrl);
  try {
    await store.migrate();
    console.log(`migrations applied to ${redactUrl(config.databaseUrl)}`);
    return 0;
  } finally {
    await store.close();
  }
}

/** Scans the stored tools again in one catalog write: a failure leaves every row as it was. */
async function rescan(config: Config): Promise<number> {
  const policy = await readPolicyFile(config.catalogPolicy);
  const store = createStore(config.databaseUrl);
  try {
    await store.migrate();
    // Findings found anew may be ones the policy's `require` refuses.
    const { summary, removed } = await store.withCatalogWriter(async (writer) => {
      const rescanned = await writer.rescanTools(new Date().toISOString());
      const curated = await curate(writer, policy);
      if (curated.removed.length > 0) await writer.refreshDuplicates();
      return { summary: rescanned, removed: curated.removed.length };
    });
    console.log(`rescanned ${summary.tools} tools of ${summary.servers} servers: ${summary.toolsChanged} tools changed, in ${summary.serversChanged} servers${removed > 0 ? `; ${removed} servers removed, which the catalog policy no longer admits` : ''}`);
    return 0;
  } finally {
    await store.close();
  }
}

async function ingestFiles(config: Config, files: readonly string[]): Promise<number> {
  if (files.length === 0) {
    console.error('ingest needs at least one file');
    return 2;
  }
  // The run's objects live for one batch: collect the garbage of batches already written early.
  setFlagsFromString('--heap-growing-percent=30');
  // Streamed from disk, record by record (src/ingest/stream-read.ts): never read whole.
  const inputs = files.map((file) => ({ file, path: file }));
  const policy = await readPolicyFile(config.catalogPolicy);
  const store = createStore(config.databaseUrl);
  const bar = process.stderr.isTTY ? new cliProgress.SingleBar({ format: 'ingest [{bar}] {percentage}% {value}/{total}', stream: process.stderr }, cliProgress.Presets.shades_classic) : null;
  const stop = stopOnSignals();
  let run: number | null = null;
  try {
    await store.migrate();
    // Recorded beside the catalog, not in the ingest's transaction: a failed run is kept as failed.
    run = await store.monitor.startRun('ingest', files.map((file) => basename(file)).join(', '), new Date().toISOString());
    bar?.start(1, 0);
    const summary = await ingest(store, inputs, {
      signal: stop.signal,
      policy,
      onProgress: (done, total) => {
        bar?.setTotal(total);
        bar?.update(done);
      },
    });
    bar?.stop();
    await store.monitor.finishRun(run, new Date().toISOString(), 'complete', summary.records, null);
    console.log(summaryLine(summary));
    return 0;
  } catch (err) {
    bar?.stop();
    if (run !== null) await store.monitor.finishRun(run, new Date().toISOString(), 'failed', 0, err instanceof Error ? err.message : String(err)).catch(() => undefined);
    return runFailed('ingest', err, stop);
  } finally {
    stop.release();
    await store.close();
  }
}

/**
 * One sentence for an ingest or sync that failed (each writes in one transaction, so nothing was
 * changed) and the exit status; a failure that is neither the input's, the upstream's, the
 * database's nor a stop is a fault of ours, reported with its stack.
 */
function runFailed(command: 'ingest' | 'sync', err: unknown, stop: StopSignals): number {
  const stoppedBy = stop.stoppedBy(err);
  if (stoppedBy !== null) {
    console.error(`${command} stopped by ${stoppedBy}, nothing was changed`);
    return exitCodeOf(stoppedBy);
  }
  const known = err instanceof IngestError || err instanceof SyncError || err instanceof NetError ? err.message : databaseFailure(err);
  console.error(`${command} failed, nothing was changed: ${known ?? (err instanceof Error ? (err.stack ?? err.message) : String(err))}`);
  return 1;
}

export function summaryLine(s: IngestSummary): string {
  const refused = s.notAdmitted > 0 ? `, ${s.notAdmitted} not admitted by the catalog policy` : '';
  return `ingested ${s.records} records from ${s.sources.join(', ')}: ${s.added} servers added, ${s.updated} updated, ${s.unchanged} unchanged${refused}; catalog has ${s.servers} servers and ${s.tools} tools (${s.seconds} s)`;
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (err: unknown) => {
    const database = databaseFailure(err);
    if (err instanceof ConfigError) console.error(err.message);
    else if (err instanceof PolicyError) console.error(`sextant: ${err.message}`);
    // The database's failures and system errors (a file is missing) are the operator's to fix: no stack.
    else if (database !== null) console.error(`sextant: ${database}`);
    else if (err instanceof Error && 'code' in err && typeof err.code === 'string') console.error(`sextant: ${err.message} (${err.code})`);
    else console.error(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  },
);
