/**
 * The in-memory engine's page selection and filters on hand-built catalogs: the ranking rules of
 * src/search/ranking.ts (name tiers first, each led by more sources then the shorter name; then
 * unflagged before flagged; then bm25; then id), offsets and limits, deep pages, and the
 * category, trust, quality and authentication filters.
 */
import { expect } from 'chai';
import { ServerDocsBuilder, ToolDocsBuilder } from '../../src/search/memory-docs.js';
import { indexesOf, type MemoryIndexes } from '../../src/search/memory-index.js';
import { weightsOf } from '../../src/search/ranking.js';
import { TextIndexBuilder } from '../../src/search/text-index-builder.js';
import { Unicode61 } from '../../src/search/unicode61.js';

interface ServerSpec {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly sourceCount?: number;
  /** Defaults to the name. */
  readonly matchNames?: string[];
  readonly categories?: string[];
  /** Admitted by trust=clean. */
  readonly clean?: boolean;
  /** Has a quality flag. */
  readonly flagged?: boolean;
}

interface ToolSpec {
  readonly id: string;
  readonly name: string;
  readonly description?: string;
  readonly authentication?: string;
}

/** The indexes of these servers and tools, each numbered (seq) in the order given. */
function indexesFor(servers: readonly ServerSpec[], tools: readonly ToolSpec[] = []): MemoryIndexes {
  const tokenizer = new Unicode61();
  const serverText = new TextIndexBuilder(weightsOf('servers_fts'), tokenizer);
  servers.forEach((s, i) => serverText.add(i + 1, [s.name, null, s.description ?? null, null, null]));
  const serverDocs = new ServerDocsBuilder(serverText.finish());
  servers.forEach((s, i) => {
    serverDocs.server(i + 1, s.sourceCount ?? 1, s.name.toLowerCase(), s.matchNames ?? [s.name.toLowerCase()], s.clean ?? false, s.flagged ?? false);
    for (const slug of s.categories ?? []) serverDocs.category(i + 1, slug);
  });
  for (const i of byId(servers)) serverDocs.nextById(i + 1);
  const toolText = new TextIndexBuilder(weightsOf('tools_fts'), tokenizer);
  tools.forEach((t, i) => toolText.add(i + 1, [t.name, null, t.description ?? null, null]));
  const toolDocs = new ToolDocsBuilder(toolText.finish());
  tools.forEach((t, i) => toolDocs.tool(i + 1, t.name.toLowerCase(), t.authentication ?? 'none'));
  for (const i of byId(tools)) toolDocs.nextById(i + 1);
  return indexesOf('g1', serverDocs.finish(), toolDocs.finish());
}

/** Servers of which trust=clean admits a and c. */
const SOME_CLEAN: ServerSpec[] = [
  { id: 'a', name: 'weather', categories: ['travel'], clean: true },
  { id: 'b', name: 'weather station', categories: ['travel'] },
  { id: 'c', name: 'weather api', categories: ['developer-tools'], clean: true },
];

/** Positions of `items` in id order. */
const byId = (items: ReadonlyArray<{ id: string }>): number[] => items.map((_, i) => i).sort((a, b) => ((items[a]?.id ?? '') < (items[b]?.id ?? '') ? -1 : 1));

interface Search {
  readonly q: string;
  readonly category?: string | null;
  readonly clean?: boolean;
  readonly quality?: 'unflagged' | 'flagged' | null;
  readonly limit?: number;
  readonly offset?: number;
}

/** The ids of a server page and its total. */
function searchServers(servers: readonly ServerSpec[], { q, category = null, clean = false, quality = null, limit = 20, offset = 0 }: Search) {
  const page = indexesFor(servers).searchServers({ words: q.split(' ').map((word) => ({ word, stem: null, typos: [] })), text: q, category, clean, quality, limit, offset });
  return page && { ids: page.seqs.map((seq) => servers[seq - 1]?.id), total: page.total };
}

function searchTools(tools: readonly ToolSpec[], q: string, authentication: 'none' | 'api_key' | 'oauth' | 'unknown' | null = null) {
  const page = indexesFor([], tools).searchTools({ words: q.split(' ').map((word) => ({ word, stem: null, typos: [] })), text: q, authentication, limit: 20, offset: 0 });
  return page && { ids: page.seqs.map((seq) => tools[seq - 1]?.id), total: page.total };
}

/** `count` servers alike but for their ids (`s0000`, `s0001`, …), given in reverse id order. */
const alike = (count: number): ServerSpec[] =>
  Array.from({ length: count }, (_, i) => ({ id: `s${String(count - 1 - i).padStart(4, '0')}`, name: 'server', description: 'weather forecasts' }));

describe('the page selection of the in-memory engine', () => {
  const cases: Array<{ behaviour: string; servers: ServerSpec[]; search: Search; ids: string[]; total?: number }> = [
    {
      behaviour: 'puts an exact name match first, before a better bm25 score',
      servers: [
        { id: 'a', name: 'weather', description: 'weather', matchNames: ['forecasts'] },
        { id: 'b', name: 'weather', description: 'a service that many people may use' },
      ],
      search: { q: 'weather' },
      ids: ['b', 'a'],
    },
    {
      behaviour: 'puts a name prefix match after the exact ones and before the rest',
      servers: [
        { id: 'a', name: 'weather', description: 'weather', matchNames: ['forecasts'] },
        { id: 'b', name: 'weather-pro', description: 'another long description of it', matchNames: ['weather-pro'] },
        { id: 'c', name: 'weather', description: 'a long description of some other kind of thing' },
      ],
      search: { q: 'weather' },
      ids: ['c', 'b', 'a'],
    },
    {
      behaviour: 'leads a name tier with the server more sources list',
      servers: [
        { id: 'a', name: 'weather', sourceCount: 1 },
        { id: 'b', name: 'weather', description: 'served by the weather office', sourceCount: 2 },
      ],
      search: { q: 'weather' },
      ids: ['b', 'a'],
    },
    {
      behaviour: 'then with the shorter display name, before bm25',
      servers: [
        { id: 'a', name: 'weather svc', matchNames: ['weather'] },
        { id: 'b', name: 'weather x', description: 'a long description of some other kind', matchNames: ['weather'] },
      ],
      search: { q: 'weather' },
      ids: ['b', 'a'],
    },
    {
      behaviour: 'orders the matches outside the name tiers by bm25',
      servers: [
        { id: 'a', name: 'maps', description: 'weather' },
        { id: 'b', name: 'weather forecasts', matchNames: ['forecasts'] },
      ],
      search: { q: 'weather' },
      ids: ['b', 'a'],
    },
    {
      behaviour: 'breaks equal scores by id, whatever the order the servers were stored in',
      servers: alike(3),
      search: { q: 'weather' },
      ids: ['s0000', 's0001', 's0002'],
    },
    {
      behaviour: 'gives the page at an offset and counts every match',
      servers: alike(5),
      search: { q: 'forecasts', offset: 1, limit: 2 },
      ids: ['s0001', 's0002'],
      total: 5,
    },
    {
      behaviour: 'gives an empty page past the last match, with the total',
      servers: alike(5),
      search: { q: 'forecasts', offset: 10 },
      ids: [],
      total: 5,
    },
    {
      behaviour: 'finds a deep page (past a thousand matches) in the same order',
      servers: alike(1_200),
      search: { q: 'weather', offset: 1_100, limit: 3 },
      ids: ['s1100', 's1101', 's1102'],
      total: 1_200,
    },
    {
      behaviour: 'keeps only the servers of the category asked for',
      servers: [
        { id: 'a', name: 'weather', categories: ['travel'] },
        { id: 'b', name: 'weather station', categories: ['science', 'travel'] },
        { id: 'c', name: 'weather api', categories: ['developer-tools'] },
      ],
      search: { q: 'weather', category: 'travel' },
      ids: ['a', 'b'],
      total: 2,
    },
    {
      behaviour: 'keeps only the servers trust=clean admits, with or without a category',
      servers: SOME_CLEAN,
      search: { q: 'weather', clean: true },
      ids: ['a', 'c'],
      total: 2,
    },
    {
      behaviour: 'keeps servers both clean and in the category',
      servers: SOME_CLEAN,
      search: { q: 'weather', category: 'travel', clean: true },
      ids: ['a'],
      total: 1,
    },
    {
      behaviour: 'puts a flagged server after an unflagged one of the same name, whatever its sources',
      servers: [
        { id: 'a', name: 'weather', sourceCount: 3, flagged: true },
        { id: 'b', name: 'weather', description: 'forecasts', sourceCount: 1 },
      ],
      search: { q: 'weather' },
      ids: ['b', 'a'],
    },
    {
      behaviour: 'puts a flagged server after an unflagged one outside the name tiers, before bm25',
      servers: [
        { id: 'a', name: 'maps', description: 'weather', flagged: true },
        { id: 'b', name: 'maps', description: 'weather forecasts and a longer text about them' },
      ],
      search: { q: 'weather' },
      ids: ['b', 'a'],
    },
    {
      behaviour: 'never lifts an unflagged server holding some words over a flagged one holding all',
      servers: [
        { id: 'a', name: 'maps', description: 'weather forecasts', flagged: true },
        { id: 'b', name: 'maps', description: 'weather' },
      ],
      search: { q: 'weather forecasts' },
      ids: ['a', 'b'],
    },
    {
      behaviour: 'keeps a flagged server out of the name tiers: after unflagged ones holding the word anywhere',
      servers: [
        { id: 'a', name: 'weather', flagged: true },
        { id: 'b', name: 'weather-pro', matchNames: ['weather-pro'] },
        { id: 'c', name: 'maps', description: 'rain and weather' },
      ],
      search: { q: 'weather' },
      ids: ['b', 'c', 'a'],
    },
    {
      behaviour: 'finds a deep page with flagged servers after the rest',
      servers: alike(1_200).map((s, i) => ({ ...s, flagged: i % 2 === 0 })),
      search: { q: 'weather', offset: 598, limit: 4 },
      ids: ['s1196', 's1198', 's0001', 's0003'],
      total: 1_200,
    },
    {
      behaviour: 'keeps only the unflagged servers, or only the flagged ones',
      servers: [
        { id: 'a', name: 'weather', flagged: true },
        { id: 'b', name: 'weather station' },
      ],
      search: { q: 'weather', quality: 'unflagged' },
      ids: ['b'],
    },
    {
      behaviour: 'keeps only the flagged servers when asked',
      servers: [
        { id: 'a', name: 'weather', flagged: true },
        { id: 'b', name: 'weather station' },
      ],
      search: { q: 'weather', quality: 'flagged' },
      ids: ['a'],
    },
    {
      behaviour: 'finds nothing in a category no server has',
      servers: [{ id: 'a', name: 'weather', categories: ['travel'] }],
      search: { q: 'weather', category: 'finance' },
      ids: [],
      total: 0,
    },
  ];
  for (const { behaviour, servers, search, ids, total } of cases) {
    it(behaviour, () => {
      expect(searchServers(servers, search)).to.deep.equal({ ids, total: total ?? ids.length });
    });
  }

  it('declines (null) a query word the tokenizer would split', () => {
    expect(searchServers([{ id: 'a', name: 'weather' }], { q: 'weather-pro' })).to.equal(null);
  });
});

describe('the tool selection of the in-memory engine', () => {
  const tools: ToolSpec[] = [
    { id: 't1', name: 'list_issues', description: 'issues issues issues', authentication: 'oauth' },
    { id: 't2', name: 'issues', description: 'a tool with a long description of many other words', authentication: 'api_key' },
    { id: 't3', name: 'issues_search', description: 'finds them by what they say, in any repository', authentication: 'none' },
    { id: 't4', name: 'search', description: 'issues', authentication: 'none' },
  ];
  const cases: Array<[string, string, 'none' | 'api_key' | 'oauth' | 'unknown' | null, string[]]> = [
    ['puts the exact tool name first, then name prefixes, then bm25', 'issues', null, ['t2', 't3', 't1', 't4']],
    ['keeps only the tools of the authentication asked for', 'issues', 'none', ['t3', 't4']],
    ['finds nothing for an authentication no tool has', 'issues', 'unknown', []],
  ];
  for (const [behaviour, q, authentication, ids] of cases) {
    it(behaviour, () => {
      expect(searchTools(tools, q, authentication)).to.deep.equal({ ids, total: ids.length });
    });
  }
});
