/**
 * The in-memory engine's text parts on their own: the unicode61 tokenizer (ASCII by rule, other
 * characters by the classes SQLite gives, here given by hand) and the text index's matching and
 * bm25 scores, against values computed by hand with FTS5's formula.
 */
import { expect } from 'chai';
import { TYPED_WEIGHT } from '../../src/search/ranking.js';
import { TextIndexBuilder } from '../../src/search/text-index-builder.js';
import type { TextIndex } from '../../src/search/text-index.js';
import { Unicode61, type CharacterClass } from '../../src/search/unicode61.js';

/** Classes as SQLite's unicode61 (remove_diacritics 2) gives them. */
const CLASSES: ReadonlyMap<string, CharacterClass> = new Map([
  ['é', { starts: true, continues: true, folded: 'e' }],
  ['Ö', { starts: true, continues: true, folded: 'o' }],
  // A combining acute accent: part of a word, folded away.
  ['\u0301', { starts: false, continues: true, folded: '' }],
  ['中', { starts: true, continues: true, folded: '中' }],
  ['文', { starts: true, continues: true, folded: '文' }],
  // An em dash and an emoji: separators.
  ['—', { starts: false, continues: false, folded: '' }],
  ['🚨', { starts: false, continues: false, folded: '' }],
]);

function tokenizer(): Unicode61 {
  const made = new Unicode61();
  made.learn(CLASSES);
  return made;
}

describe('the unicode61 tokenizer of the in-memory engine', () => {
  const cases: Array<[string, string, string[] | null]> = [
    ['splits ASCII at anything but letters and digits, in lower case', 'GitHub-MCP server_v2 (beta)', ['github', 'mcp', 'server', 'v2', 'beta']],
    ['folds a precomposed diacritic away', 'Café Öl', ['cafe', 'ol']],
    ['folds a combining diacritic away', 'cafe\u0301s', ['cafes']],
    ['keeps a classified character of another script in the word', '中文 docs', ['中文', 'docs']],
    ['splits at a classified separator', 'alerts—🚨now', ['alerts', 'now']],
    ['gives null for a character it has not classified', 'naïve', null],
    ['gives no word for punctuation alone', '*"()', []],
  ];
  for (const [behaviour, text, tokens] of cases) {
    it(`${behaviour}: ${JSON.stringify(text)}`, () => {
      expect(tokenizer().tokenize(text)).to.deep.equal(tokens);
    });
  }

  it('lists the distinct characters it has not classified', () => {
    expect(tokenizer().unknown(['naïve ïs', 'plain ascii', null, 'Café ünï'])).to.deep.equal(['ï', 'ü']);
  });
});

/**
 * Four documents, two weighted columns (name 10, description 1): 19 tokens, 4.75 a document.
 * rowid 1: "github" / "github issues and pull requests" (6 tokens); 2: "gitlab" / "merge requests"
 * (3); 3: "weather" / "forecasts for any city" (5); 4: "notes" / "a git backed notebook" (5).
 */
function smallIndex(): TextIndex {
  const builder = new TextIndexBuilder([10, 1], tokenizer());
  builder.add(1, ['github', 'github issues and pull requests']);
  builder.add(2, ['gitlab', 'merge requests']);
  builder.add(3, ['weather', 'forecasts for any city']);
  builder.add(4, ['notes', 'a git backed notebook']);
  return builder.finish();
}

/** The rowids a query matches, each with its score. */
function scores(index: TextIndex, words: string[], accepts: (doc: number) => boolean = () => true): Map<number, number> | null {
  const matches = index.match(words.map((word) => ({ word, stem: null, typos: [] })), accepts);
  if (!matches) return null;
  return new Map([...matches.docs].map((doc, k) => [index.rowids[doc] as number, matches.scores[k] as number]));
}

describe('the text index of the in-memory engine', () => {
  it("scores a rare word with FTS5's bm25 and the column weights", () => {
    // idf = ln((4 - 1 + 0.5) / (1 + 0.5)); f = 10 (name) + 1 (description);
    // idf * f * 2.2 / (f + 1.2 * (0.25 + 0.75 * 6 / 4.75)) = 1.648698925967145
    const found = scores(smallIndex(), ['github']);
    expect([...(found?.keys() ?? [])]).to.deep.equal([1]);
    expect(found?.get(1)).to.be.closeTo(1.648698925967145, 1e-12);
  });

  it('adds each word of a query, and matches a document holding only some of them', () => {
    // "issues": f = 1, the same idf and length: 0.7649470964186849 more.
    const found = scores(smallIndex(), ['github', 'issues']);
    expect([...(found?.keys() ?? [])]).to.deep.equal([1]);
    expect(found?.get(1)).to.be.closeTo(2.41364602238583, 1e-12);
    const index = smallIndex();
    const some = index.match(['github', 'weather'].map((word) => ({ word, stem: null, typos: [] })), () => true);
    const masks = new Map([...(some?.docs ?? [])].map((doc, k) => [index.rowids[doc] as number, some?.masks[k]]));
    expect(Object.fromEntries(masks), 'each holds one word: its bit').to.deep.equal({ 1: 1, 3: 2 });
    expect(some?.full).to.equal(3);
  });

  it('matches a word by its stem as well, and scores the word as typed above the stem alone', () => {
    const builder = new TextIndexBuilder([1], tokenizer());
    builder.add(1, ['shared calendars for teams']);
    builder.add(2, ['a calendar for teams']);
    builder.add(3, ['notes']);
    const index = builder.finish();
    const found = index.match([{ word: 'calendars', stem: 'calendar', typos: [] }], () => true);
    const byRowid = new Map([...(found?.docs ?? [])].map((doc, k) => [index.rowids[doc] as number, found?.scores[k] as number]));
    expect([...byRowid.keys()].sort()).to.deep.equal([1, 2]);
    expect(byRowid.get(1)).to.be.greaterThan(byRowid.get(2) as number);
  });

  it('counts a word with a stem once, by its stem, and adds TYPED_WEIGHT of the typed form\'s part', () => {
    const builder = new TextIndexBuilder([1], tokenizer());
    builder.add(1, ['shared calendars for teams']);
    builder.add(2, ['a calendar for teams']);
    builder.add(3, ['notes']);
    builder.add(4, ['weather forecasts']);
    builder.add(5, ['git repositories']);
    builder.add(6, ['send email']);
    const index = builder.finish();
    const found = index.match([{ word: 'calendars', stem: 'calendar', typos: [] }], () => true);
    const byRowid = new Map([...(found?.docs ?? [])].map((doc, k) => [index.rowids[doc] as number, found?.scores[k] as number]));
    // 15 tokens, 2.5 a document; every part has f = 1 in a document of 4 tokens:
    // part = idf * 2.2 / (1 + 1.2 * (0.25 + 0.75 * 4 / 2.5)) = idf * 2.2 / 2.74.
    // "calendar"*: 2 documents, idf = ln(4.5 / 2.5); "calendars"*: 1, idf = ln(5.5 / 1.5).
    const stem = (Math.log(4.5 / 2.5) * 2.2) / 2.74;
    const typed = (Math.log(5.5 / 1.5) * 2.2) / 2.74;
    expect(TYPED_WEIGHT).to.be.above(0).and.below(1);
    expect(byRowid.get(2), 'the stem alone').to.be.closeTo(stem, 1e-12);
    expect(byRowid.get(1), 'the stem, and a share of the word as typed').to.be.closeTo(stem + TYPED_WEIGHT * typed, 1e-12);
    expect(byRowid.get(1), 'less than the two parts whole').to.be.below(stem + typed);
  });

  it('matches every word as a prefix, and floors the idf of a word most documents hold', () => {
    // "git" is in github, gitlab and git: idf = ln(1.5 / 3.5) < 0, so FTS5 takes 1e-6.
    const found = scores(smallIndex(), ['git']);
    expect([...(found?.keys() ?? [])].sort()).to.deep.equal([1, 2, 4]);
    expect(found?.get(2)).to.be.closeTo(2.0242130750605325e-6, 1e-15);
    expect(found?.get(4)).to.be.closeTo(9.789227166276346e-7, 1e-15);
  });

  it('folds the query words as the documents: diacritics and case', () => {
    const builder = new TextIndexBuilder([10, 1], tokenizer());
    builder.add(7, ['Café', 'an Öl press']);
    const index = builder.finish();
    expect([...(scores(index, ['CAFE\u0301', 'OL'])?.keys() ?? [])]).to.deep.equal([7]);
  });

  it('keeps only the documents the filter keeps', () => {
    const index = smallIndex();
    expect([...(scores(index, ['requests'], (doc) => index.rowids[doc] === 2)?.keys() ?? [])]).to.deep.equal([2]);
  });

  it('declines (null) a word the tokenizer splits, or holding a character it has not classified', () => {
    expect(scores(smallIndex(), ['pull-requests'])).to.equal(null);
    expect(scores(smallIndex(), ['naïve'])).to.equal(null);
  });
});
