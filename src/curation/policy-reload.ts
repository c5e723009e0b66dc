/**
 * The catalog policy while `serve` runs: read again on SIGHUP and when its file changes. The
 * process that writes the catalog (the only one, or the background worker of WORKERS=N) applies
 * a changed policy with the curation pass; the others serve what it commits, and only keep the
 * policy current for writes of their own (a publish). A file that cannot be used leaves the
 * policy in force as it was.
 */
import { watchFile, unwatchFile } from 'node:fs';
import type { CatalogPolicy } from '../catalog/catalog-policy.js';
import { PolicyError, widens } from '../catalog/catalog-policy.js';
import type { Audit } from '../auth/access-tokens.js';
import { curateCatalog, type CurationSummary } from '../ingest/curation.js';
import type { Logger } from '../logger.js';
import { plural } from '../plural.js';
import type { Store } from '../store/index.js';
import { readPolicyFile, samePolicy } from './policy-file.js';

/** What one reload did. */
export type ReloadOutcome =
  | { readonly outcome: 'refused'; readonly problem: string }
  | { readonly outcome: 'unchanged' }
  /** A process that does not write took the file's policy as it is. */
  | { readonly outcome: 'followed' }
  | { readonly outcome: 'applied'; readonly admitted: number; readonly removed: number; readonly widened: boolean };

export interface PolicyReloaderOptions {
  readonly path: string;
  readonly store: Store;
  readonly audit: Audit;
  readonly logger: Logger;
  /** The policy read at start. */
  readonly initial: CatalogPolicy | null;
  /** Runs after a changed policy's curation pass, in the same turn: servers of sources ingest does not read (published ones) are written again under it. */
  readonly afterCuration?: (policy: CatalogPolicy | null, summary: CurationSummary) => Promise<void>;
  /** Whether this process applies a changed policy (the curation pass, the audit); else it only follows the file. */
  readonly writes?: boolean;
  /** How often the file's state is polled, in ms (watchFile survives editors that replace the file). */
  readonly pollMs?: number;
  /** Changes within this long are one reload, in ms. */
  readonly debounceMs?: number;
  readonly now?: () => Date;
}

export interface PolicyReloader {
  current(): CatalogPolicy | null;
  /** Reads the file again and applies it; reloads run one at a time, in the order asked. */
  reload(trigger: string): Promise<ReloadOutcome>;
  close(): void;
}

/** The sentence logged and audited when a widened policy resets the sync cursor. */
export const FULL_SYNC_NEXT = 'the catalog policy may admit servers removed before: the next sync is a full one';

/** Watches the file and SIGHUP, and applies each change; `close` stops both. */
export function startPolicyReloader(options: PolicyReloaderOptions): PolicyReloader {
  const { path, store, audit, logger } = options;
  const now = options.now ?? (() => new Date());
  let current = options.initial;
  let queue: Promise<unknown> = Promise.resolve();

  const apply = async (trigger: string): Promise<ReloadOutcome> => {
    let next: CatalogPolicy | null;
    try {
      next = await readPolicyFile(path);
    } catch (err) {
      if (!(err instanceof PolicyError)) throw err;
      if (options.writes === false) return { outcome: 'refused', problem: err.message };
      logger.error({ policy: path, trigger, problem: err.message }, 'catalog policy not reloaded: the policy in force stays');
      await audit.record({ actor: 'policy', action: 'policy_reload', target: path, detail: { trigger, outcome: 'refused', problem: err.message } });
      return { outcome: 'refused', problem: err.message };
    }
    if (options.writes === false) {
      current = next;
      return { outcome: 'followed' };
    }
    if (samePolicy(current, next)) {
      logger.info({ policy: path, trigger }, 'catalog policy reloaded: unchanged');
      await audit.record({ actor: 'policy', action: 'policy_reload', target: path, detail: { trigger, outcome: 'unchanged' } });
      return { outcome: 'unchanged' };
    }
    const widened = widens(current, next);
    const summary = await curateCatalog(store, next);
    current = next;
    if (widened) await store.monitor.resetSyncCursors(now().toISOString(), FULL_SYNC_NEXT);
    await options.afterCuration?.(next, summary);
    const counts = { admitted: summary.admitted, removed: summary.removed.length, widened };
    logger.info({ policy: path, trigger, ...counts }, `catalog policy reloaded: ${plural(counts.removed, 'server')} removed, ${counts.admitted} admitted${widened ? `; ${FULL_SYNC_NEXT}` : ''}`);
    await audit.record({ actor: 'policy', action: 'policy_reload', target: path, detail: { trigger, outcome: 'applied', ...counts } });
    return { outcome: 'applied', ...counts };
  };
  const reload = (trigger: string): Promise<ReloadOutcome> => {
    const run = queue.then(() => apply(trigger));
    queue = run.catch((err: unknown) => logger.error({ err, policy: path, trigger }, 'catalog policy reload failed: the policy in force stays'));
    return run;
  };

  const onSighup = (): void => void reload('SIGHUP').catch(() => undefined);
  process.on('SIGHUP', onSighup);
  let timer: NodeJS.Timeout | undefined;
  const onChange = (): void => {
    clearTimeout(timer);
    timer = setTimeout(() => void reload('file changed').catch(() => undefined), options.debounceMs ?? 200);
  };
  watchFile(path, { interval: options.pollMs ?? 1000, persistent: false }, onChange);
  return {
    current: () => current,
    reload,
    close() {
      clearTimeout(timer);
      unwatchFile(path, onChange);
      process.off('SIGHUP', onSighup);
    },
  };
}

export interface ServedPolicy {
  current(): CatalogPolicy | null;
  close(): void;
}

/**
 * The policy in `serve`. The process that writes the catalog applies it once at start (the file
 * may have changed while the service was stopped), then reloads it; the others follow the file,
 * applying nothing, so SIGHUP (relayed to every worker) does not stop them.
 */
export async function servePolicy(options: Omit<PolicyReloaderOptions, 'path' | 'writes'> & { readonly path: string | null; readonly writes: boolean }): Promise<ServedPolicy> {
  const { path, initial, writes, logger } = options;
  if (path === null) return { current: () => null, close: () => undefined };
  if (!writes) return startPolicyReloader({ ...options, path, writes: false });
  const summary = await curateCatalog(options.store, initial);
  await options.afterCuration?.(initial, summary);
  logger.info({ policy: path, admitted: summary.admitted, removed: summary.removed.length }, `catalog policy in force: ${plural(summary.admitted, 'server')} admitted, ${summary.removed.length} removed`);
  await options.audit.record({ actor: 'policy', action: 'policy_reload', target: path, detail: { trigger: 'start', outcome: 'applied', admitted: summary.admitted, removed: summary.removed.length, widened: false } });
  return startPolicyReloader({ ...options, path });
}
