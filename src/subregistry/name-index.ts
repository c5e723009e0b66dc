/**
 * The registry API's `search` (DESIGN.md "Registry API"): every entry whose name contains the
 * text, any case, as the official registry does it with ILIKE. A table scan does that on either
 * database, ten milliseconds and more at 100k names; this index holds every name once, in the
 * list's order (bytewise: names are ASCII, so JavaScript's order is the databases' C order), as
 * one lower-case string, so a search is the engine's substring search over it, from the page's
 * cursor on, stopping as soon as a page's worth of names is found. The list itself stays in SQL.
 */

export interface NameIndex {
  /** How many names it holds. */
  readonly size: number;
  /**
   * Up to `count` names containing `text` (any case), in order, starting at `from`: names after
   * it, and `from` itself too when `inclusive` (versions of it may follow the cursor).
   */
  matching(text: string, from: { readonly name: string; readonly inclusive: boolean } | null, count: number): string[];
}

/** Separates the names in the searched text: no name has one, so no match spans two names. */
const SEPARATOR = '\n';

export function buildNameIndex(given: Iterable<string>): NameIndex {
  const names = [...new Set(given)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
  const starts = new Int32Array(names.length + 1);
  let length = 0;
  names.forEach((name, i) => {
    starts[i] = length;
    length += name.length + SEPARATOR.length;
  });
  starts[names.length] = length;
  const text = names.map((name) => name.toLowerCase()).join(SEPARATOR) + SEPARATOR;

  /** The index of the first name not before `name` (after it, when not `inclusive`). */
  const firstFrom = (name: string, inclusive: boolean): number => {
    let low = 0;
    let high = names.length;
    while (low < high) {
      const mid = (low + high) >>> 1;
      const candidate = names[mid] as string;
      if (candidate < name || (!inclusive && candidate === name)) low = mid + 1;
      else high = mid;
    }
    return low;
  };
  /** The name a position of the text falls in. */
  const nameAt = (position: number): number => {
    let low = 0;
    let high = names.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >>> 1;
      if ((starts[mid] as number) <= position) low = mid;
      else high = mid - 1;
    }
    return low;
  };

  return {
    size: names.length,
    matching(search, from, count) {
      const needle = search.toLowerCase();
      const found: string[] = [];
      if (needle === '' || needle.includes(SEPARATOR)) return found;
      let position = starts[from ? firstFrom(from.name, from.inclusive) : 0] as number;
      while (found.length < count) {
        const at = text.indexOf(needle, position);
        if (at < 0) break;
        const index = nameAt(at);
        found.push(names[index] as string);
        position = starts[index + 1] as number;
      }
      return found;
    },
  };
}
