/**
 * The matching strategy's word rules (ranking.ts: STEM_RULES, TYPED_WEIGHT, STOP_WORDS, SYNONYMS, MAX_TERMS), each on
 * its own, and the catalog's search text (catalog/search-text.ts): names split into words, CJK
 * runs as pairs, a tool's schema as its property words.
 */
import { expect } from 'chai';
import { cjkParts, pairsOf, schemaTextOf, searchNameOf, withCjkPairs } from '../../src/catalog/search-text.js';
import { parseQuery } from '../../src/search/query.js';
import { MAX_SYNONYMS, MAX_TERMS, MIN_STEMMED, STEM_RULES, STOP_WORDS, SYNONYMS } from '../../src/search/ranking.js';
import { alternativesOf, typedForms } from '../../src/search/typos.js';
import { matchedTermsOf, meaningfulWords, stemOf, synonymsOf } from '../../src/search/words.js';

/** Each rule's own examples: the word, the stem it gives. */
const RULE_CASES: Readonly<Record<string, ReadonlyArray<readonly [string, string | null]>>> = {
  sses: [['addresses', 'address'], ['classes', 'class']],
  ies: [['queries', 'quer'], ['libraries', 'librar'], ['dies', null]],
  ches: [['searches', 'search'], ['patches', 'patch']],
  shes: [['pushes', 'push'], ['flushes', 'flush']],
  xes: [['boxes', 'box'], ['indexes', 'index']],
  s: [['calendars', 'calendar'], ['converts', 'convert'], ['files', 'file'], ['status', null], ['analysis', null], ['access', null]],
  ing: [['scraping', 'scrap'], ['sending', 'send'], ['running', 'run'], ['calling', 'call'], ['string', null]],
  ed: [['created', 'creat'], ['stopped', 'stop'], ['listed', 'list']],
  e: [['scrape', 'scrap'], ['create', 'creat'], ['file', null], ['code', null]],
  y: [['query', 'quer'], ['library', 'librar'], ['display', null], ['proxy', 'prox']],
};

describe('the words of a query', () => {
  describe('stemming (STEM_RULES), rule by rule', () => {
    it('has cases for every rule, and no case for a rule that does not exist', () => {
      expect(Object.keys(RULE_CASES).sort()).to.deep.equal(STEM_RULES.map((rule) => rule.name).sort());
    });
    for (const rule of STEM_RULES) {
      it(`${rule.name}: ${rule.rule}`, () => {
        for (const [word, stem] of RULE_CASES[rule.name] ?? []) expect(stemOf(word), word).to.equal(stem);
      });
    }
    it('gives a stem that is always a prefix of the word (so a prefix match on the stem finds the word too)', () => {
      for (const cases of Object.values(RULE_CASES)) {
        for (const [word, stem] of cases) if (stem !== null) expect(word.startsWith(stem), word).to.equal(true);
      }
    });
    it('matches a word with a stem by its stem in every engine\'s expression, and lists the word as typed apart (TYPED_WEIGHT)', () => {
      const words = [{ word: 'calendars', stem: 'calendar', synonyms: [], typos: [] }, { word: 'slack', stem: null, typos: [] }, { word: 'correo', stem: null, synonyms: ['email'], typos: [] }];
      expect(words.map(alternativesOf)).to.deep.equal([
        [{ term: 'calendar', prefix: true }],
        [{ term: 'slack', prefix: true }],
        [{ term: 'correo', prefix: true }, { term: 'email', prefix: true }],
      ]);
      expect(typedForms(words)).to.deep.equal(['calendars']);
    });

    it(`leaves words under ${MIN_STEMMED} letters, and words not of ASCII letters, as they are`, () => {
      expect(stemOf('aws')).to.equal(null);
      expect(stemOf('mp3s')).to.equal(null);
      expect(stemOf('cafés')).to.equal(null);
      expect(stemOf('github')).to.equal(null);
    });
  });

  describe('stop words (STOP_WORDS)', () => {
    it('drops them from a sentence', () => {
      expect(parseQuery('how can I read my Google calendar?')?.terms).to.deep.equal(['read', 'google', 'calendar']);
    });
    it('keeps them when nothing else is left', () => {
      expect(meaningfulWords(['how', 'to'])).to.deep.equal(['how', 'to']);
      expect(parseQuery('the')?.terms).to.deep.equal(['the']);
    });
    it("holds Snowball's English list, its words without apostrophes", () => {
      const snowball = ('i me my myself we our ours ourselves you your yours yourself yourselves he him his himself she her hers herself ' +
        'it its itself they them their theirs themselves what which who whom this that these those am is are was were be been being ' +
        'have has had having do does did doing would should could ought a an the and but if or because as until while of at by for ' +
        'with about against between into through during before after above below to from up down in out on off over under again ' +
        'further then once here there when where why how all any both each few more most other some such no nor not only own same ' +
        'so than too very').split(' ');
      expect(snowball.filter((word) => !STOP_WORDS.has(word))).to.deep.equal([]);
    });
    it('keeps the verbs tools are named after', () => {
      for (const verb of ['get', 'list', 'find', 'create', 'send', 'search', 'read', 'delete']) expect(STOP_WORDS.has(verb), verb).to.equal(false);
    });
  });

  describe('synonyms (SYNONYMS)', () => {
    it('lists each word as a query gives it: one meaningful word, or one pair of CJK characters', () => {
      for (const word of Object.keys(SYNONYMS)) expect(parseQuery(word)?.terms, word).to.deep.equal([word]);
    });
    it('stands each for words an index holds as one token: ASCII letters and digits, lower case', () => {
      for (const [word, synonyms] of Object.entries(SYNONYMS)) {
        expect(synonyms.length, word).to.be.greaterThan(0);
        for (const synonym of synonyms) expect(synonym, word).to.match(/^[a-z0-9]+$/);
      }
    });
    it('finds a word\'s synonyms by the word, or else by its stem', () => {
      expect(synonymsOf('k8s', stemOf('k8s'))).to.deep.equal(['kubernetes']);
      expect(synonymsOf('correo', stemOf('correo'))).to.deep.equal(['email', 'mail']);
      expect(synonymsOf('天气', null)).to.deep.equal(['weather', 'forecast']);
      expect(stemOf('dokuments')).to.equal('dokument');
      expect(synonymsOf('dokuments', stemOf('dokuments'))).to.deep.equal(['document']);
      expect(synonymsOf('calendar', stemOf('calendar'))).to.deep.equal([]);
    });
    it('adds no synonym that the word or its stem already starts with, or that starts with them', () => {
      expect(SYNONYMS['repo']).to.deep.equal(['repositor']);
      expect(synonymsOf('repo', null)).to.deep.equal([]);
      expect(SYNONYMS['pg']).to.deep.equal(['postgres']);
      expect(synonymsOf('pg', null)).to.deep.equal(['postgres']);
    });
    it(`keeps at most ${MAX_SYNONYMS} for a word`, () => {
      const longest = Math.max(...Object.values(SYNONYMS).map((synonyms) => synonyms.length));
      expect(longest).to.be.at.most(MAX_SYNONYMS);
      for (const word of Object.keys(SYNONYMS)) expect(synonymsOf(word, stemOf(word)).length, word).to.be.at.most(MAX_SYNONYMS);
    });
    it('are never stop words, and "done" is not one either (mark a task done)', () => {
      for (const word of Object.keys(SYNONYMS)) expect(STOP_WORDS.has(word), word).to.equal(false);
      expect(parseQuery('mark the task as done')?.terms).to.deep.equal(['mark', 'task', 'done']);
    });
  });

  describe('a query', () => {
    it(`keeps the first ${MAX_TERMS} distinct meaningful words of a pasted task`, () => {
      const words = Array.from({ length: 60 }, (_, i) => `word${i}`);
      const terms = parseQuery([...words, ...words].join(' '))?.terms ?? [];
      expect(terms).to.have.length(MAX_TERMS);
      expect(terms[0]).to.equal('word0');
      expect(new Set(terms).size).to.equal(MAX_TERMS);
    });
    it('splits a run of CJK characters into pairs, and keeps other words whole', () => {
      expect(parseQuery('天气预报')?.terms).to.deep.equal(['天气', '气预', '预报']);
      expect(parseQuery('天气')?.terms).to.deep.equal(['天气']);
      expect(parseQuery('天 weather')?.terms).to.deep.equal(['天', 'weather']);
      expect(parseQuery('天气api')?.terms).to.deep.equal(['天气', 'api']);
    });
    it('says which words a result holds from its mask, every word for a name match', () => {
      expect(matchedTermsOf(['read', 'google', 'calendar'], 0b110)).to.deep.equal(['google', 'calendar']);
      expect(matchedTermsOf(['read', 'google'], null)).to.deep.equal(['read', 'google']);
    });
  });

  describe('the search text of a record', () => {
    it('holds a name as written and as its words', () => {
      expect(searchNameOf('listPullRequests')).to.equal('listPullRequests list Pull Requests');
      expect(searchNameOf('HTTPServer get_weather')).to.equal('HTTPServer get_weather HTTP Server');
      expect(searchNameOf('slack mcp')).to.equal('slack mcp');
    });
    it('holds a CJK run as its pairs and its last character, so that any part of it starts a word', () => {
      expect(pairsOf('天气预报')).to.deep.equal(['天气', '气预', '预报']);
      expect(withCjkPairs('获取天气预报API')).to.equal(' 获取 取天 天气 气预 预报 报 API');
      expect(withCjkPairs('weather only')).to.equal('weather only');
      expect(cjkParts('天气api')).to.deep.equal([{ text: '天气', cjk: true }, { text: 'api', cjk: false }]);
    });
    it("holds a tool's input schema as its property names (in words) and descriptions, nested ones too", () => {
      const text = schemaTextOf({
        type: 'object',
        properties: {
          cityName: { type: 'string', description: 'The city to forecast' },
          options: { type: 'object', properties: { unit_system: { type: 'string' } } },
          tags: { type: 'array', items: { type: 'object', properties: { label: { description: 'A tag' } } } },
        },
      });
      expect(text).to.equal('cityName city Name The city to forecast options unit system tags label A tag');
      expect(schemaTextOf(null)).to.equal('');
      expect(schemaTextOf({ type: 'object' })).to.equal('');
    });
    it('holds at most a bounded schema text, whatever the schema', () => {
      let deep: Record<string, unknown> = { type: 'string' };
      for (let i = 0; i < 1_000; i += 1) deep = { type: 'object', properties: { [`p${i}`]: deep } };
      const wide = { type: 'object', properties: Object.fromEntries(Array.from({ length: 5_000 }, (_, i) => [`property${i}`, { description: 'x'.repeat(100) }])) };
      expect(schemaTextOf(deep).split(' ').length).to.be.at.most(10);
      expect(schemaTextOf(wide).length).to.be.below(4_000);
    });
  });
});
