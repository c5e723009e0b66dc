/** Long lists of ids cut into `IN (…)` lists a statement can bind. */

/** Ids per `IN (…)` list of a lookup or delete. */
const IN_LIST_SIZE = 400;

/** `items` in consecutive slices of at most `size`. */
export function inLists<T>(items: readonly T[], size = IN_LIST_SIZE): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}
