/**
 * Which matches make a page, for the in-memory engine: the few in a name tier sorted by the
 * tier rules, then the rest: documents holding every word first, each part by bm25 and id, of
 * which only as many as the page needs are kept. The orders are the ranking rules of ranking.ts.
 */
import type { TextMatches } from './text-index.js';

/** A page of a relevance search, as rowids (`seq`) best first, and the number of matches. */
export interface IndexedPage {
  readonly seqs: number[];
  readonly total: number;
  /** Each one's words (bit i: word i of the search); absent for a name-prefix search, which matched the whole text. */
  readonly masks?: number[];
}

/** The matches in a name tier: positions in the matches, and each one's tier (-1 for none; valid until the next query). */
export interface Tiers {
  readonly positions: readonly number[];
  tier(k: number): number;
}

/** Deeper pages than this are found by one full sort of the matches rather than by insertion. */
const INSERTION_LIMIT = 1_000;

/**
 * A document holding every word first, then (where `flagged` is given: servers) one without a
 * quality flag, then higher bm25, then id (by `idRank`, each document's rank in id order).
 */
export function byScore(matches: TextMatches, idRank: Int32Array, a: number, b: number, flagged: Uint8Array | null = null): number {
  const fullA = matches.masks[a] === matches.full;
  const fullB = matches.masks[b] === matches.full;
  if (fullA !== fullB) return fullA ? -1 : 1;
  if (flagged !== null) {
    const flag = (flagged[matches.docs[a] as number] as number) - (flagged[matches.docs[b] as number] as number);
    if (flag !== 0) return flag;
  }
  const scoreA = matches.scores[a] as number;
  const scoreB = matches.scores[b] as number;
  if (scoreA !== scoreB) return scoreA > scoreB ? -1 : 1;
  return (idRank[matches.docs[a] as number] as number) - (idRank[matches.docs[b] as number] as number);
}

/**
 * The page at `offset`: matches in a name tier (0 or 1, few) sorted by `named`, then the rest by
 * `byScore`, of which only as many as the page needs are kept, in one pass. `rowids` maps a
 * document to its seq; `flagged` (servers) marks the documents with a quality flag.
 */
export function pageOf(rowids: Uint32Array, matches: TextMatches, tiers: Tiers, named: (a: number, b: number) => number, idRank: Int32Array, offset: number, limit: number, flagged: Uint8Array | null = null): IndexedPage {
  const wanted = offset + limit;
  const first = best([...tiers.positions], wanted, named);
  const rest = bestByScore(matches, tiers, idRank, Math.max(0, wanted - first.length), flagged);
  const page = [...first, ...rest].slice(offset, wanted);
  return { seqs: page.map((k) => rowids[matches.docs[k] as number] as number), total: matches.docs.length, masks: page.map((k) => matches.masks[k] as number) };
}

/** The first `count` of `items` in `order` (a bounded insertion when that is much less than all of them). */
function best(items: number[], count: number, order: (a: number, b: number) => number): number[] {
  if (items.length <= count * 4 || count > INSERTION_LIMIT) return items.sort(order).slice(0, count);
  const top: number[] = [];
  for (const item of items) {
    if (top.length === count && order(item, top[count - 1] as number) >= 0) continue;
    let lo = 0;
    let hi = top.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order(top[mid] as number, item) <= 0) lo = mid + 1;
      else hi = mid;
    }
    top.splice(lo, 0, item);
    if (top.length > count) top.pop();
  }
  return top;
}

/** The `count` best matches outside the name tiers in `byScore` order, best first. */
function bestByScore(matches: TextMatches, tiers: Tiers, idRank: Int32Array, count: number, flagged: Uint8Array | null): number[] {
  if (count === 0) return [];
  const { docs, scores, masks, full } = matches;
  const order = (a: number, b: number): number => byScore(matches, idRank, a, b, flagged);
  if (count > INSERTION_LIMIT) {
    const all: number[] = [];
    for (let k = 0; k < docs.length; k += 1) if (tiers.tier(k) < 0) all.push(k);
    return all.sort(order).slice(0, count);
  }
  const best: number[] = [];
  let worstFull = 0;
  let worstPlain = 0;
  let worstScore = Number.NEGATIVE_INFINITY;
  let worstRank = -1;
  const named = tiers.positions.length > 0;
  for (let k = 0; k < docs.length; k += 1) {
    if (named && tiers.tier(k) >= 0) continue;
    const whole = masks[k] === full ? 1 : 0;
    // 1 without a quality flag: ranked before a flagged match of the same wholeness.
    const plain = flagged === null ? 1 : 1 - (flagged[docs[k] as number] as number);
    const score = scores[k] as number;
    const rank = idRank[docs[k] as number] as number;
    if (best.length === count && (whole < worstFull || (whole === worstFull && (plain < worstPlain || (plain === worstPlain && (score < worstScore || (score === worstScore && rank > worstRank))))))) continue;
    let lo = 0;
    let hi = best.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (order(best[mid] as number, k) < 0) lo = mid + 1;
      else hi = mid;
    }
    best.splice(lo, 0, k);
    if (best.length > count) best.pop();
    if (best.length === count) {
      const worst = best[count - 1] as number;
      worstFull = masks[worst] === full ? 1 : 0;
      worstPlain = flagged === null ? 1 : 1 - (flagged[docs[worst] as number] as number);
      worstScore = scores[worst] as number;
      worstRank = idRank[docs[worst] as number] as number;
    }
  }
  return best;
}
