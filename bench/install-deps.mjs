// Installs the bench's own packages when bench/node_modules is missing or older than its lockfile.
// Not `npm ci` on every run: that empties node_modules under any bench already running beside it.
import { spawnSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const bench = dirname(fileURLToPath(import.meta.url));
const modified = (file) => statSync(join(bench, file), { throwIfNoEntry: false })?.mtimeMs ?? -1;

if (modified('node_modules/.package-lock.json') < modified('package-lock.json')) {
  const npm = spawnSync('npm', ['ci', '--no-audit', '--no-fund'], { cwd: bench, stdio: 'inherit' });
  process.exitCode = npm.status ?? 1;
}
