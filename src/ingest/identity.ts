/**
 * Which records are one server (DESIGN.md "One server, one entry"): a function of the set of
 * records alone, never of the order they arrived in, so the same files give the same catalog in
 * any order, together or one at a time. The rules are stated once, in IDENTITY_RULES.
 */
import type { SourceName } from '../types.js';
import { serverIdOf } from '../catalog/ids.js';
import type { RankingRule } from '../search/ranking.js';
import { byPrecedence, compareText as compare } from './materialize.js';

/** More records than this sharing one key (a template repository, a generic endpoint) tell no server apart. */
export const MAX_KEY_RECORDS = 40;

export const IDENTITY_RULES: readonly RankingRule[] = [
  { name: 'package or remote', rule: 'records that list the same package (registry and identifier, without version) or the same remote URL are one server' },
  { name: 'name', rule: 'records of different sources that propose the same name are one server' },
  { name: 'repository', rule: 'records of different sources with the same repository and subfolder are one server, unless both list packages of one registry and share none there (distinct servers of one repository; Docker’s own builds aside)' },
  { name: 'one source, one record', rule: 'two records of one source are one server only by a shared package or remote; two official records never are, nor two publisher records (each name a registry publishes is its own entry)' },
  { name: 'one registry name', rule: 'a published record and an official record of the same name are one server, whatever else either matches: a registry name is one entry of the registry API' },
  { name: 'closest match', rule: 'a record that shares a package, remote or name with records of another source is matched by those alone, else by repository; when its matches there are not one server among themselves, it is merged with none of them' },
  { name: 'crowded key', rule: `a key that more than ${MAX_KEY_RECORDS} records share identifies no server` },
  { name: 'canonical name', rule: 'a server is named by its first record by source precedence (publisher, demo, official, docker, toolsdk), then by name: a published or official name wins; servers of one name (records of one source) take -2, -3… in the order of their canonical records' },
  { name: 'id', rule: 'a server id is the readable slug of its canonical name (catalog/ids.ts serverIdOf); servers whose slugs collide take -2, -3… in the order of their canonical records' },
];

/** What identity needs of a record. */
export interface IdentityFacts {
  readonly source: SourceName;
  readonly key: string;
  readonly name: string;
  readonly matchKeys: readonly string[];
}

export interface Identity {
  /** The id of the server each record belongs to, by `identityKey(source, key)`. */
  readonly serverOf: ReadonlyMap<string, string>;
  /** Each server's canonical name, by id. */
  readonly names: ReadonlyMap<string, string>;
}

export const identityKey = (source: string, key: string): string => `${source}\u0000${key}`;

/** Records into servers, by IDENTITY_RULES. */
export function identify(facts: Iterable<IdentityFacts>): Identity {
  const records = [...facts].sort((a, b) => byPrecedence(a, b) || compare(a.key, b.key));
  const links = linksOf(records);
  const sets = new UnionFind(records.length);
  for (const [a, b] of links) sets.union(a, b);
  const groups = new Map<number, number[]>();
  for (let i = 0; i < records.length; i += 1) {
    const root = sets.find(i);
    const members = groups.get(root);
    if (members) members.push(i);
    else groups.set(root, [i]);
  }
  // The canonical record of each server; servers in the order of their canonical records.
  const servers = [...groups.values()]
    .map((members) => ({ members, canonical: members.map((i) => records[i] as IdentityFacts).sort(canonicalOrder)[0] as IdentityFacts }))
    .sort((a, b) => canonicalOrder(a.canonical, b.canonical));
  const serverOf = new Map<string, string>();
  const names = new Map<string, string>();
  const taken = new Set<string>();
  for (const { members, canonical } of servers) {
    const name = numbered(canonical.name, (candidate) => taken.has(candidate));
    taken.add(name);
    const id = numbered(serverIdOf(name), (candidate) => names.has(candidate));
    names.set(id, name);
    for (const i of members) {
      const record = records[i] as IdentityFacts;
      serverOf.set(identityKey(record.source, record.key), id);
    }
  }
  return { serverOf, names };
}

/** `base`, else the first of `base-2`, `base-3`… not taken. */
function numbered(base: string, taken: (candidate: string) => boolean): string {
  let candidate = base;
  for (let n = 2; taken(candidate); n += 1) candidate = `${base}-${n}`;
  return candidate;
}

function canonicalOrder(a: IdentityFacts, b: IdentityFacts): number {
  return byPrecedence(a, b) || compare(a.name, b.name) || compare(a.key, b.key);
}

/** Sources whose every name is a registry entry of its own. */
const REGISTRY_SOURCES: ReadonlySet<SourceName> = new Set(['official', 'publisher']);

const isIdentityKey = (key: string): boolean => key.startsWith('pkg:') || key.startsWith('remote:');

/** Pairs of record indexes that are one server, by the rules. */
function linksOf(records: readonly IdentityFacts[]): Array<readonly [number, number]> {
  // Most keys belong to one record: held as its index, an array only once a second shares it.
  const byKey = new Map<string, number | number[]>();
  const add = (key: string, i: number): void => {
    const held = byKey.get(key);
    if (held === undefined) byKey.set(key, i);
    else if (typeof held === 'number') byKey.set(key, [held, i]);
    else held.push(i);
  };
  records.forEach((record, i) => {
    for (const key of new Set(record.matchKeys)) add(key, i);
    add(`name:${record.name}`, i);
  });
  const packagesOf = records.map((record) => record.matchKeys.filter((key) => key.startsWith('pkg:')));
  const sameSource = new UnionFind(records.length);
  // Pairs of records of different sources, and whether a package, remote or name links them (else only the repository).
  const across = new Map<string, { readonly a: number; readonly b: number; strong: boolean }>();
  for (const [key, members] of byKey) {
    if (typeof members === 'number' || members.length > MAX_KEY_RECORDS) continue;
    const strong = !key.startsWith('repo:');
    for (let x = 0; x < members.length; x += 1) {
      for (let y = x + 1; y < members.length; y += 1) {
        const a = members[x] as number;
        const b = members[y] as number;
        const ra = records[a] as IdentityFacts;
        const rb = records[b] as IdentityFacts;
        if (ra.source === rb.source) {
          if (isIdentityKey(key) && !REGISTRY_SOURCES.has(ra.source)) sameSource.union(a, b);
          continue;
        }
        if (!strong && toldApart(packagesOf[a] ?? [], packagesOf[b] ?? [])) continue;
        const pair = across.get(`${a} ${b}`);
        if (pair) pair.strong ||= strong;
        else across.set(`${a} ${b}`, { a, b, strong });
      }
    }
  }
  // A record's matches in another source: its strong ones where it has any, else those by repository.
  const matches = new Map<string, { strong: number[]; weak: number[] }>();
  for (const { a, b, strong } of across.values()) {
    for (const [from, to] of [[a, b], [b, a]] as const) {
      const slot = `${from} ${(records[to] as IdentityFacts).source}`;
      const found = matches.get(slot) ?? { strong: [], weak: [] };
      (strong ? found.strong : found.weak).push(to);
      matches.set(slot, found);
    }
  }
  // It joins them only when they are one server there.
  const joins = (from: number, to: number): boolean => {
    const found = matches.get(`${from} ${(records[to] as IdentityFacts).source}`);
    const chosen = found === undefined ? [] : found.strong.length > 0 ? found.strong : found.weak;
    return chosen.includes(to) && new Set(chosen.map((i) => sameSource.find(i))).size === 1;
  };
  const links: Array<readonly [number, number]> = [];
  for (let i = 0; i < records.length; i += 1) if (sameSource.find(i) !== i) links.push([i, sameSource.find(i)]);
  for (const { a, b } of across.values()) if (joins(a, b) && joins(b, a)) links.push([a, b]);
  for (const [key, members] of byKey) {
    if (!key.startsWith('name:') || typeof members === 'number') continue;
    const named = members.filter((i) => REGISTRY_SOURCES.has((records[i] as IdentityFacts).source));
    for (const other of named.slice(1)) links.push([named[0] as number, other]);
  }
  return links;
}

/**
 * Both list packages of one registry and share none there: two servers kept in one repository.
 * Docker's catalog runs its own builds (`mcp/…` images), which tell nothing apart.
 */
function toldApart(a: readonly string[], b: readonly string[]): boolean {
  const registries = (keys: readonly string[]) => new Set(keys.filter((key) => !key.startsWith('pkg:oci:mcp/')).map((key) => key.split(':')[1]));
  const shared = [...registries(a)].filter((registry) => registries(b).has(registry));
  return shared.some((registry) => !a.some((key) => key.split(':')[1] === registry && b.includes(key)));
}

class UnionFind {
  private readonly parent: Int32Array;

  constructor(size: number) {
    this.parent = Int32Array.from({ length: size }, (_, i) => i);
  }

  find(i: number): number {
    let root = i;
    while (this.parent[root] !== root) root = this.parent[root] as number;
    for (let at = i; this.parent[at] !== root; ) {
      const next = this.parent[at] as number;
      this.parent[at] = root;
      at = next;
    }
    return root;
  }

  /** Joins the sets; the smaller index is the root, so roots do not depend on the order of unions. */
  union(a: number, b: number): void {
    const ra = this.find(a);
    const rb = this.find(b);
    if (ra === rb) return;
    if (ra < rb) this.parent[rb] = ra;
    else this.parent[ra] = rb;
  }
}
