/** The search-quality yardstick (test/support/relevance-metrics.ts), on hand-made cases. */
import { expect } from 'chai';
import { ndcgAt, plainBm25, plainWords, recallAt, score, summarize } from '../support/relevance-metrics.js';

const close = (actual: number, expected: number): void => {
  expect(actual).to.be.closeTo(expected, 1e-9);
};

describe('recall@k', () => {
  const grades = { a: 2, b: 1, c: 1 };

  it('counts the labelled ids among the first k, out of all of them when they fit', () => {
    close(recallAt(['a', 'x', 'b', 'y', 'c'], grades, 5), 1);
    close(recallAt(['a', 'x', 'b', 'y', 'c'], grades, 3), 2 / 3);
    close(recallAt(['x', 'y', 'z'], grades, 10), 0);
  });

  it('counts graded 1 and 2 alike, and an id listed twice once', () => {
    close(recallAt(['b', 'b', 'b'], grades, 10), 1 / 3);
  });

  it('divides by k when more ids are labelled than fit in k', () => {
    const many = Object.fromEntries(['a', 'b', 'c', 'd', 'e', 'f'].map((id) => [id, 1]));
    close(recallAt(['a', 'b', 'x', 'c'], many, 4), 3 / 4);
    close(recallAt(['a', 'b', 'c', 'd', 'e', 'f'], many, 5), 1);
  });

  it('is 0 for an empty answer', () => {
    close(recallAt([], grades, 10), 0);
  });
});

describe('nDCG@k', () => {
  it('is 1 for the ideal order and less for any other', () => {
    const grades = { a: 2, b: 1 };
    close(ndcgAt(['a', 'b'], grades, 10), 1);
    const swapped = ndcgAt(['b', 'a'], grades, 10);
    // DCG of [1, 2] over DCG of [2, 1]: (1 + 3/log2 3) / (3 + 1/log2 3).
    close(swapped, (1 + 3 / Math.log2(3)) / (3 + 1 / Math.log2(3)));
    expect(swapped).to.be.lessThan(1);
  });

  it('discounts a right answer by its rank', () => {
    const grades = { a: 1 };
    close(ndcgAt(['a'], grades, 10), 1);
    close(ndcgAt(['x', 'a'], grades, 10), 1 / Math.log2(3));
    close(ndcgAt(['x', 'y', 'z', 'a'], grades, 3), 0);
  });

  it('weighs an ideal answer above an acceptable one (gain 2^grade − 1)', () => {
    const grades = { ideal: 2, acceptable: 1 };
    expect(ndcgAt(['ideal', 'x'], grades, 10)).to.be.greaterThan(ndcgAt(['acceptable', 'x'], grades, 10));
    close(ndcgAt(['acceptable'], grades, 10), 1 / (3 + 1 / Math.log2(3)));
  });

  it('does not pay twice for an id listed twice', () => {
    close(ndcgAt(['a', 'a'], { a: 1, b: 1 }, 10), 1 / (1 + 1 / Math.log2(3)));
  });
});

describe('score and summarize', () => {
  it('averages each measure over the requests and counts the empty answers', () => {
    const first = score(['a'], { a: 1 });
    const second = score([], { b: 2 });
    expect(first).to.deep.equal({ recall5: 1, recall10: 1, ndcg10: 1, empty: false });
    expect(second.empty).to.equal(true);
    expect(summarize([first, second])).to.deep.equal({ requests: 2, recall5: 0.5, recall10: 0.5, ndcg10: 0.5, empty: 1 });
  });
});

describe('the plain OR-bm25 baseline', () => {
  const documents = [
    { id: 'calendar', text: 'Google Calendar: list events and free slots' },
    { id: 'mail', text: 'Send e-mail through Gmail' },
    { id: 'both', text: 'Gmail and Google Calendar' },
    { id: 'long', text: `calendar ${'filler '.repeat(40)}` },
    { id: 'weather', text: '天气预报 weather forecast' },
  ];
  const index = plainBm25(documents);

  it('splits lower-cased text on anything but letters and digits', () => {
    expect(plainWords('Get_Weather-by CITY, 2024!')).to.deep.equal(['get', 'weather', 'by', 'city', '2024']);
    expect(plainWords('listPullRequests')).to.deep.equal(['listpullrequests']);
  });

  it('ORs the words: a document holding any of them is found', () => {
    expect(index.search('calendar gmail', 10)).to.have.members(['calendar', 'mail', 'both', 'long']);
    expect(index.search('read my google calendar please', 10)).to.include('calendar');
  });

  it('ranks a document holding more of the words first, and a shorter one above a longer one', () => {
    const ranked = index.search('gmail calendar', 10);
    expect(ranked[0]).to.equal('both');
    expect(ranked.indexOf('calendar')).to.be.lessThan(ranked.indexOf('long'));
  });

  it('neither stems nor finds a word inside a longer run', () => {
    expect(index.search('calendars', 10)).to.deep.equal([]);
    expect(index.search('天气', 10)).to.deep.equal([]);
    expect(index.search('天气预报', 10)).to.deep.equal(['weather']);
  });

  it('keeps to the limit and breaks ties by id', () => {
    const tied = plainBm25([{ id: 'b', text: 'pdf' }, { id: 'a', text: 'pdf' }, { id: 'c', text: 'pdf' }]);
    expect(tied.search('pdf', 2)).to.deep.equal(['a', 'b']);
  });

  it('never scores a word below zero, however common', () => {
    const common = plainBm25([{ id: 'x', text: 'mcp server' }, { id: 'y', text: 'mcp server tools' }, { id: 'z', text: 'mcp' }]);
    expect(common.search('mcp', 10)).to.have.length(3);
  });
});
