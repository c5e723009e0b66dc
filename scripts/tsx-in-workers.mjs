/**
 * Loaded with `--import` beside tsx, for running from source (tests, `npm run sextant`): tsx
 * registers its loader on the main thread only under Node 20, and a worker thread (ingest's
 * readers, src/ingest/read-inputs.ts) inherits the flags but not the loader, so it registers
 * it here (registering again where tsx already has is harmless). Built code (dist/) needs none of this.
 */
import { isMainThread } from 'node:worker_threads';

if (!isMainThread) {
  const { register } = await import('tsx/esm/api');
  register();
}
