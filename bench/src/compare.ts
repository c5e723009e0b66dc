/**
 * Two servers already running on the same corpus (two commits, say), loaded in turn on the
 * same scenarios, A B then B A, in short passes: this machine's speed drifts by more than a
 * change of a few percent, over minutes but hardly within one round. Prints each round and the
 * median of B's req/s over A's. Start each server as the bench does (rate limits off, pinned
 * to one core) and run this on the other core.
 *
 *   npm run compare -- URL_A URL_B search-q,get-server [rounds] [seconds]
 */
import { join, resolve } from 'node:path';
import { ensureCorpus } from './corpus.js';
import { runLoad } from './load.js';
import { median } from './paired.js';
import { buildScenarios } from './scenarios.js';
import { loadSettings } from './settings.js';

const [urlA, urlB, names, rounds = '10', seconds = '4'] = process.argv.slice(2);
if (!urlA || !urlB || !names) {
  console.error('usage: compare URL_A URL_B SCENARIO[,SCENARIO…] [rounds] [seconds per pass]');
  process.exit(2);
}
const root = resolve('..');
const settings = loadSettings(process.env, root);
const first = (await (await fetch(`${urlA}/api/v1/servers/search?sort=a-z&limit=1`)).json()) as { total: number };
const manifest = await ensureCorpus(join(root, 'bench', 'corpus'), first.total, settings.seed, settings.dataDir, (line) => console.error(line));
const wanted = names.split(',');
const scenarios = (await buildScenarios(urlA, manifest)).filter((s) => wanted.includes(s.name));
const options = { connections: settings.connections, seconds: Number(seconds), warmupSeconds: 0.5, timeoutSeconds: 10 };
for (const scenario of scenarios) {
  // A lap of every request on each first, so that both passes measure kept answers alike.
  for (const url of [urlA, urlB]) await runLoad(url, scenario.requests, { ...options, seconds: Math.max(1, Math.ceil(scenario.requests.length / 200)) });
  const a: number[] = [];
  const b: number[] = [];
  for (let round = 0; round < Number(rounds); round += 1) {
    const order = round % 2 === 0 ? [urlA, urlB] : [urlB, urlA];
    const rps = new Map<string, number>();
    for (const url of order) rps.set(url, (await runLoad(url, scenario.requests, options)).rps);
    a.push(rps.get(urlA) as number);
    b.push(rps.get(urlB) as number);
    console.log(`${scenario.name} round ${round + 1}: A ${Math.round(a.at(-1) as number)} req/s, B ${Math.round(b.at(-1) as number)} req/s, B/A ${((b.at(-1) as number) / (a.at(-1) as number)).toFixed(3)}`);
  }
  const ratios = a.map((ra, i) => (b[i] as number) / ra);
  console.log(`${scenario.name}: A ${Math.round(median(a))} req/s, B ${Math.round(median(b))} req/s (medians); B/A median ${median(ratios).toFixed(3)}, from ${Math.min(...ratios).toFixed(3)} to ${Math.max(...ratios).toFixed(3)}`);
}
