/**
 * Two app processes on one PostgreSQL database (DESIGN.md "Scale"): the discovery rate limit
 * counts across both, a monitor pass from both checks each endpoint once, and an assessment
 * whose instance is killed mid-job is finished by the other, and a catalog write through one
 * reaches the other's in-memory search index. Runs under `npm run test:pg`.
 */
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import { createStore, type Store } from '../../src/store/index.js';
import { freshDatabase, TEST_DIALECT, type TestDatabase } from '../support/database.js';
import { catalog, mcpHandler, startFixture, type Fixture } from '../support/fixture-servers.js';
import { startHarness } from '../support/harness.js';
import { startInstance, type Instance } from '../support/instance-process.js';

describe(`two instances on one PostgreSQL database${TEST_DIALECT === 'postgres' ? '' : ' (skipped: the suite runs on SQLite; npm run test:pg runs these)'}`, function () {
  this.timeout(60_000);
  let database: TestDatabase;
  let fixture: Fixture;
  const instances: Instance[] = [];
  const ENDPOINTS = 40;

  before(async function () {
    if (TEST_DIALECT !== 'postgres') this.skip();
    database = await freshDatabase();
    // Each endpoint answers slowly (a check is three requests), so the two passes overlap.
    const mcp = mcpHandler();
    fixture = await startFixture((req, res, body) => void setTimeout(() => mcp(req, res, body), 100));
    const seed = await startHarness({ demo: false, database });
    await ingest(seed.service.store, [catalog(Array.from({ length: ENDPOINTS }, (_, i) => ({ name: `com.fixture/endpoint-${i}`, url: `${fixture.url}/mcp/${i}` })))]);
    await seed.close();
  });
  afterEach(async () => {
    for (const instance of instances.splice(0)) await instance.stop();
  });
  after(async () => {
    await fixture?.close();
    await database?.drop();
  });

  it('shares the discovery rate limit: 10 a minute across both instances, not 10 each', async () => {
    const [a, b] = await Promise.all([startInstance(database, { DISCOVERY_RATE_LIMIT: '10' }), startInstance(database, { DISCOVERY_RATE_LIMIT: '10' })]);
    instances.push(a!, b!);
    const answers: Array<{ status: number; remaining: string | null }> = [];
    for (let i = 0; i < 14; i += 1) {
      const response = await fetch(`${(i % 2 === 0 ? a : b)!.base}/api/v1/servers/search?q=fixture`);
      answers.push({ status: response.status, remaining: response.headers.get('ratelimit') });
      await response.arrayBuffer();
    }
    expect(answers.map((x) => x.status)).to.deep.equal([...Array(10).fill(200), ...Array(4).fill(429)]);
    expect(answers.slice(0, 10).map((x) => /r=(\d+)/.exec(x.remaining ?? '')?.[1])).to.deep.equal(['9', '8', '7', '6', '5', '4', '3', '2', '1', '0']);
  });

  it(`checks each of ${ENDPOINTS} endpoints once when both instances run a monitor pass`, async () => {
    const [a, b] = await Promise.all([startInstance(database, { MONITOR: '1' }), startInstance(database, { MONITOR: '1' })]);
    instances.push(a!, b!);
    const summaries = await Promise.all([a!.next((m) => 'monitor' in m), b!.next((m) => 'monitor' in m)]);
    const checked = summaries.map((m) => (m.monitor as { endpoints: number }).endpoints);
    expect(checked[0]! + checked[1]!, `split ${checked.join(' + ')}`).to.equal(ENDPOINTS);
    expect(checked.every((n) => n > 0), `both instances shared the pass: ${checked.join(' + ')}`).to.equal(true);
    const initializes = new Map<string, number>();
    for (const request of fixture.requests.filter((r) => r.body.includes('"initialize"'))) initializes.set(request.url, (initializes.get(request.url) ?? 0) + 1);
    expect(initializes.size, JSON.stringify(summaries)).to.equal(ENDPOINTS);
    expect([...initializes.values()].every((n) => n === 1), JSON.stringify([...initializes])).to.equal(true);
  });

  it('answers a search with the same first results on both after a write made through the other (each in-memory index follows the shared generation)', async () => {
    const b = await startInstance(database);
    instances.push(b);
    const built = await b.next((m) => typeof m.indexBuilt === 'number');
    const a = await startHarness({ demo: false, database });
    try {
      expect(await a.service.warmSearch(), 'the writer\'s in-memory index is built').to.equal(true);
      const names = async (base: string, query: string): Promise<string[]> => {
        const response = await fetch(`${base}/api/v1/servers/search?${query}`);
        const body = (await response.json()) as { items: Array<{ name: string }> };
        return body.items.map((item) => item.name);
      };
      expect(await names(b.base, 'q=beacon')).to.deep.equal([]);
      await ingest(a.service.store, [catalog([
        { name: 'com.example/beacon', tools: ['beacon_scan'] },
        { name: 'com.example/beacon-relay', tools: ['relay_beacon', 'beacon_ping'] },
        { name: 'com.example/lighthouse', tools: ['beacon_light'] },
      ])]);
      const servers = Number(built.indexBuilt) + 3;
      // B sees the write within the generation's freshness (SQL answers while its index catches up) ...
      const deadline = Date.now() + 10_000;
      while ((await names(b.base, 'q=beacon')).length < 3 && Date.now() < deadline) await new Promise((resolve) => setTimeout(resolve, 100));
      // ... then rebuilds its in-memory index at the new generation.
      await b.next((m) => m.indexBuilt === servers);
      expect(await a.service.warmSearch()).to.equal(true);
      for (const query of ['q=beacon&limit=2', 'q=beacon%20scan', 'q=lighthouse']) {
        const [fromA, fromB] = [await names(a.baseUrl, query), await names(b.base, query)];
        expect(fromB, query).to.not.deep.equal([]);
        expect(fromB, query).to.deep.equal(fromA);
      }
      expect(await names(b.base, 'q=beacon&limit=3')).to.have.members(['com.example/beacon', 'com.example/beacon-relay', 'com.example/lighthouse']);
    } finally {
      await a.close();
    }
  });

  it('never hands one endpoint to two claims made at the same moment on separate connections', async () => {
    const stores = [createStore(database.url), createStore(database.url)];
    try {
      const [first] = stores;
      await first!.monitor.scheduleEndpoints();
      // Claim as of a moment when every endpoint is due (whatever earlier tests left), with
      // 16 claimers (8 per instance) racing for them, 3 at a time.
      const now = '2100-01-01T00:00:00.000Z';
      const future = '2200-01-01T00:00:00.000Z';
      const claimed: string[] = [];
      const claimer = async (store: Store, name: string): Promise<void> => {
        for (;;) {
          const batch = await store.monitor.claimDue(name, now, future, 3);
          if (batch.length === 0) return;
          claimed.push(...batch.map((e) => e.url));
        }
      };
      await Promise.all(stores.flatMap((store, i) => Array.from({ length: 8 }, (_, j) => claimer(store, `instance-${i}-${j}`))));
      expect(claimed).to.have.length(ENDPOINTS);
      expect(new Set(claimed).size).to.equal(ENDPOINTS);
    } finally {
      for (const store of stores) await store.close();
    }
  });

  it('finishes on the other instance an assessment whose instance was killed mid-job', async () => {
    const doomed = await startInstance(database, { PROBE: 'hang', LEASE_MS: '1500' });
    instances.push(doomed);
    const created = await fetch(`${doomed.base}/api/v1/assessments`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ domain: 'killed-firm.com' }) });
    const { id } = (await created.json()) as { id: string };
    await doomed.next((m) => m.probing === 'killed-firm.com');
    doomed.process.kill('SIGKILL');
    const survivor = await startInstance(database, { PROBE: 'quick', LEASE_MS: '1500' });
    instances.push(survivor);
    await survivor.next((m) => m.probing === 'killed-firm.com');
    const response = await fetch(`${survivor.base}/api/v1/assessments/${id}`, { headers: { prefer: 'wait=10' } });
    const body = (await response.json()) as { status: string; observations: Array<{ value: string }> };
    expect(body.status).to.equal('complete');
    expect(body.observations.map((o) => o.value)).to.deep.equal(['addresses of killed-firm.com']);
  });
});
