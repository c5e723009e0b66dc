/**
 * Run-long sets of an ingest keyed by 52-bit string hashes (`hash52`): a few bytes an entry
 * however long the string, so a run's memory stays bounded by a number per id and merge key.
 */

/**
 * A set of hash52 values (ids, keys): open addressing in a Float64Array, 8 bytes a slot and at
 * most three quarters full, where a Set of numbers holds each number as a heap object that every
 * full collection marks again.
 */
export class Hash52Set {
  private keys = new Float64Array(1 << 16);
  private count = 0;

  get size(): number {
    return this.count;
  }

  has(key: number): boolean {
    return this.keys[this.slot(key)] !== 0;
  }

  /** Adds `key`; says whether it was not there. */
  add(key: number): boolean {
    this.reserve();
    const slot = this.slot(key);
    if (this.keys[slot] !== 0) return false;
    this.fill(slot, key);
    return true;
  }

  /** The slot that holds `key`, or the empty one where it would go. Keys are stored plus one: 0 is an empty slot. */
  private slot(key: number): number {
    const stored = key + 1;
    const mask = this.keys.length - 1;
    for (let slot = (key % 4_294_967_296) & mask; ; slot = (slot + 1) & mask) {
      const at = this.keys[slot];
      if (at === stored || at === 0) return slot;
    }
  }

  private fill(slot: number, key: number): void {
    this.keys[slot] = key + 1;
    this.count += 1;
  }

  /** Doubles the table before a key would fill it past three quarters. */
  private reserve(): void {
    if (4 * (this.count + 1) <= 3 * this.keys.length) return;
    const old = this.keys;
    this.keys = new Float64Array(old.length * 2);
    for (let from = 0; from < old.length; from += 1) {
      const stored = old[from] ?? 0;
      if (stored === 0) continue;
      const to = this.slot(stored - 1);
      this.keys[to] = stored;
    }
  }
}


/** A 52-bit hash of a string (two 32-bit multiplicative lanes), for run-long sets of ids and keys. */
export function hash52(value: string): number {
  let a = 0x811c9dc5;
  let b = 0x9747b28c ^ value.length;
  for (let i = 0; i < value.length; i += 1) {
    const c = value.charCodeAt(i);
    a = Math.imul(a ^ c, 0x01000193);
    b = Math.imul(b ^ c, 0x5bd1e995);
    b ^= b >>> 13;
  }
  return (a >>> 0) * 0x100000 + ((b >>> 0) & 0xfffff);
}

/** A run-long set of strings kept as hash52 values: a few bytes each, however long the string. */
export class HashedSet {
  private readonly hashes = new Hash52Set();

  constructor(values: Iterable<string>) {
    for (const value of values) this.hashes.add(hash52(value));
  }

  /** As the Set<string> assignInstallKeys takes (it asks `has` and `add`); a collision only passes over a free key. */
  asSet(): Set<string> {
    const hashes = this.hashes;
    return new (class extends Set<string> {
      override has(value: string): boolean {
        return hashes.has(hash52(value));
      }
      override add(value: string): this {
        hashes.add(hash52(value));
        return this;
      }
    })();
  }
}
