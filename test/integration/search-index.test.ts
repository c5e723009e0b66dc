/**
 * The in-memory search engine against FTS5 on the full real upstream data, a larger second check
 * beside the parity suite on the committed fixture (search-parity.test.ts): the same pages and
 * totals for hundreds of queries taken from the data (frequent and rare words, typed prefixes,
 * pairs, words in other scripts and with diacritics, with a category, deeper pages), and the same
 * behaviour around catalog changes. Skipped, with the reason, where ../shared/data is absent.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';
import { ingest } from '../../src/ingest/ingest-service.js';
import { createFts5Engine } from '../../src/search/fts5-engine.js';
import { createMemoryEngine } from '../../src/search/memory-engine.js';
import { createStore } from '../../src/store/index.js';
import { freshSqliteFile, type TestDatabase } from '../support/database.js';
import { memoryMatchesFts5, mistyped, namespacesOf, queriesOf, SENTENCE_QUERIES, wordsOf, type ParitySubject } from '../support/search-parity.js';

const DATA = fileURLToPath(new URL('../../../shared/data/', import.meta.url));
const FILES = ['official-registry-v0.1-snapshot-2025-12.json', 'docker-mcp-catalog-servers.json', 'toolsdk-mcp-registry-servers.json'];
const available = FILES.every((file) => existsSync(`${DATA}${file}`));

const EXTRA_QUERIES = ['github', 'google maps', 'hugging face', 'postgres', 'brave search', 'notion', 'café', 'München', 'e2e', 'mcp server', 'atlasian', 'kubernets', 'playwr', 'postgresql database', 'slack', 'io.github.modelcontextprotocol'];

describe(`the in-memory search engine against FTS5 on the real data${available ? '' : ' (skipped: ../shared/data not found next to the checkout)'}`, function () {
  this.timeout(240_000);
  let database: TestDatabase;
  let subject: ParitySubject;

  before(async function () {
    if (!available) this.skip();
    database = freshSqliteFile();
    const store = createStore(database.url);
    await store.migrate();
    const inputs = FILES.map((file) => ({ file, text: readFileSync(`${DATA}${file}`, 'utf8') }));
    await ingest(store, inputs);
    const memory = createMemoryEngine(store.searchSource, () => store.contentGeneration(true));
    const texts = inputs.map((input) => input.text);
    const words = wordsOf(texts);
    subject = { store, memory, fts5: createFts5Engine(store.searchSource), queries: queriesOf(words, [...EXTRA_QUERIES, ...SENTENCE_QUERIES, ...mistyped(words), ...namespacesOf(texts)]) };
    expect(await memory.warm(), 'the in-memory engine is built').to.equal(true);
  });
  after(async () => {
    subject?.memory.close();
    await subject?.store.close();
    await database?.drop();
  });

  memoryMatchesFts5(() => subject, { queries: 250, nonAscii: 20 });
});
