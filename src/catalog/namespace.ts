/**
 * A server name's reverse-DNS namespace (`io.github.someone` in `io.github.someone/weather`):
 * who published it, not what it does. Search reads names without it (DESIGN.md "Search
 * quality"), and so do the category rules.
 */

/** The name without its reverse-DNS namespace: `io.github.someone/weather` → `weather`; other names as they are. */
export function withoutNamespace(name: string): string {
  const slash = name.indexOf('/');
  return slash > 0 && name.slice(0, slash).includes('.') ? name.slice(slash + 1) : name;
}
