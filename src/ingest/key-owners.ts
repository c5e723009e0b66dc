/**
 * Which record of a source first carried each merge key, for the ambiguity check of a run
 * (ingest-service.ts `readAll`): a million servers bring about three million keys, so the table
 * is two typed arrays with open addressing (12 bytes a slot, at most three quarters full) where
 * a Map of numbers took about 56 bytes an entry. Keys and owners are hashes (hash52); an owner
 * is kept to 32 bits, so two records are taken for one once in four billion.
 */
export class KeyOwners {
  private keys = new Float64Array(1 << 16);
  private owners = new Uint32Array(1 << 16);
  private size = 0;

  /** Records `owner` as the first owner of `key` unless one is; says whether another owns it. */
  ownedByAnother(key: number, owner: number): boolean {
    if (4 * (this.size + 1) > 3 * this.keys.length) this.grow();
    const stored = key + 1;
    const short = owner % 4_294_967_296;
    const mask = this.keys.length - 1;
    for (let slot = (key % 4_294_967_296) & mask; ; slot = (slot + 1) & mask) {
      const at = this.keys[slot];
      if (at === stored) return this.owners[slot] !== short;
      if (at === 0) {
        this.keys[slot] = stored;
        this.owners[slot] = short;
        this.size += 1;
        return false;
      }
    }
  }

  private grow(): void {
    const { keys, owners } = this;
    this.keys = new Float64Array(keys.length * 2);
    this.owners = new Uint32Array(keys.length * 2);
    this.size = 0;
    for (let i = 0; i < keys.length; i += 1) {
      const at = keys[i] ?? 0;
      if (at !== 0) this.place(at, owners[i] ?? 0);
    }
  }

  private place(stored: number, owner: number): void {
    const mask = this.keys.length - 1;
    for (let slot = ((stored - 1) % 4_294_967_296) & mask; ; slot = (slot + 1) & mask) {
      if (this.keys[slot] === 0) {
        this.keys[slot] = stored;
        this.owners[slot] = owner;
        this.size += 1;
        return;
      }
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
