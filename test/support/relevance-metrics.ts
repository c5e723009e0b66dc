/**
 * The yardstick of search quality (issue "Search that understands what people and agents ask"):
 * recall@k and nDCG@k of a ranked answer against graded labels, their averages over a labelled
 * set, and a plain Okapi BM25 computed beside the engines as the baseline they must beat.
 * Pure functions: test/unit/relevance-metrics.test.ts checks each on hand-made cases.
 */

/** A request's labels: id → grade (2: what was asked for; 1: an acceptable answer). */
export type Grades = Readonly<Record<string, number>>;

/**
 * The share of the labelled ids found in the first `k` of `ranked`, out of as many as fit in `k`
 * (min(k, labelled)): a request with twelve right answers can still score 1 at 10.
 */
export function recallAt(ranked: readonly string[], grades: Grades, k: number): number {
  const labelled = Object.keys(grades).filter((id) => (grades[id] ?? 0) > 0).length;
  if (labelled === 0) return 0;
  const found = new Set(ranked.slice(0, k).filter((id) => (grades[id] ?? 0) > 0)).size;
  return found / Math.min(k, labelled);
}

/** Discounted cumulative gain of grades in rank order: gain 2^grade − 1, discount log2(rank + 1). */
function dcg(gradesInOrder: readonly number[]): number {
  return gradesInOrder.reduce((sum, grade, i) => sum + (2 ** grade - 1) / Math.log2(i + 2), 0);
}

/** nDCG@k: the DCG of the first `k` of `ranked` over the DCG of the best possible first `k`. */
export function ndcgAt(ranked: readonly string[], grades: Grades, k: number): number {
  const ideal = dcg(Object.values(grades).filter((g) => g > 0).sort((a, b) => b - a).slice(0, k));
  if (ideal === 0) return 0;
  const seen = new Set<string>();
  const got = ranked.slice(0, k).map((id) => {
    // An id listed twice earns its gain once.
    const grade = seen.has(id) ? 0 : grades[id] ?? 0;
    seen.add(id);
    return grade;
  });
  return dcg(got) / ideal;
}

/** How one answer scores. */
export interface Scored {
  readonly recall5: number;
  readonly recall10: number;
  readonly ndcg10: number;
  /** The answer had no result at all. */
  readonly empty: boolean;
}

export function score(ranked: readonly string[], grades: Grades): Scored {
  return { recall5: recallAt(ranked, grades, 5), recall10: recallAt(ranked, grades, 10), ndcg10: ndcgAt(ranked, grades, 10), empty: ranked.length === 0 };
}

/** The averages over a set of answers, and how many were empty. */
export interface Summary {
  readonly requests: number;
  readonly recall5: number;
  readonly recall10: number;
  readonly ndcg10: number;
  readonly empty: number;
}

export function summarize(scored: readonly Scored[]): Summary {
  const mean = (pick: (s: Scored) => number): number => (scored.length === 0 ? 0 : scored.reduce((sum, s) => sum + pick(s), 0) / scored.length);
  return {
    requests: scored.length,
    recall5: mean((s) => s.recall5),
    recall10: mean((s) => s.recall10),
    ndcg10: mean((s) => s.ndcg10),
    empty: scored.filter((s) => s.empty).length,
  };
}

/** The baseline's words: lower-cased runs of letters and digits; no stop words, no stemming. */
export function plainWords(text: string): string[] {
  return text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? [];
}

/** A document of the baseline: its id and its text (its fields joined, unweighted). */
export interface PlainDocument {
  readonly id: string;
  readonly text: string;
}

/** Okapi BM25's constants, as the issue fixes the baseline's. */
export const PLAIN_BM25 = { k1: 1.2, b: 0.75 } as const;

/** A plain Okapi BM25 index: `search` ORs the query's words and ranks by score, then id. */
export interface PlainBm25 {
  search(query: string, limit: number): string[];
}

/**
 * Builds the baseline over `documents`. The idf is ln(1 + (N − n + 0.5) / (n + 0.5)), Lucene's
 * form of Robertson–Spärck Jones, which never goes negative for a word most documents hold.
 */
export function plainBm25(documents: readonly PlainDocument[], { k1, b } = PLAIN_BM25): PlainBm25 {
  const postings = new Map<string, Array<[number, number]>>();
  const lengths: number[] = [];
  documents.forEach((doc, index) => {
    const words = plainWords(doc.text);
    lengths.push(words.length);
    const counts = new Map<string, number>();
    for (const word of words) counts.set(word, (counts.get(word) ?? 0) + 1);
    for (const [word, tf] of counts) {
      const list = postings.get(word) ?? [];
      list.push([index, tf]);
      postings.set(word, list);
    }
  });
  const total = documents.length;
  const average = lengths.reduce((sum, n) => sum + n, 0) / Math.max(1, total);
  return {
    search(query, limit) {
      const scores = new Map<number, number>();
      for (const word of new Set(plainWords(query))) {
        const list = postings.get(word) ?? [];
        const idf = Math.log(1 + (total - list.length + 0.5) / (list.length + 0.5));
        for (const [index, tf] of list) {
          const norm = tf + k1 * (1 - b + (b * (lengths[index] ?? 0)) / average);
          scores.set(index, (scores.get(index) ?? 0) + (idf * tf * (k1 + 1)) / norm);
        }
      }
      const idOf = (index: number): string => documents[index]?.id ?? '';
      return [...scores]
        .sort((x, y) => y[1] - x[1] || (idOf(x[0]) < idOf(y[0]) ? -1 : idOf(x[0]) > idOf(y[0]) ? 1 : 0))
        .slice(0, limit)
        .map(([index]) => idOf(index));
    },
  };
}
