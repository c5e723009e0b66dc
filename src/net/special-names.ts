/**
 * Host names that never name a public destination, refused by name before any lookup: the
 * special-use names of RFC 6761 (`localhost`), RFC 6762 (`.local`), RFC 7686 (`.onion`),
 * RFC 8375 (`.home.arpa`), RFC 9476 (`.alt`), `.invalid`, and ICANN's private-use `.internal`.
 * Every spelling counts: any case, trailing dots, Unicode forms that map to them.
 * `.test` and `.example` are left to resolution (RFC 6761 asks applications not to treat them
 * specially), so their addresses decide, as for any other name.
 */
import { domainToASCII } from 'node:url';

/** The name itself or any name under it is special-use. */
const SPECIAL_SUFFIXES: readonly string[] = ['localhost', 'local', 'internal', 'home.arpa', 'onion', 'alt', 'invalid'];

/** `hostname` as DNS would compare it: lower case, A-labels, no trailing dots. */
export function canonicalHostname(hostname: string): string {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  const ascii = domainToASCII(bare) || bare.toLowerCase();
  return ascii.replace(/\.+$/, '');
}

/** Why `hostname` is refused by name (e.g. 'a special-use name (.localhost)'), or null when it is not special-use. */
export function specialUseName(hostname: string): string | null {
  const name = canonicalHostname(hostname);
  const suffix = SPECIAL_SUFFIXES.find((s) => name === s || name.endsWith(`.${s}`));
  return suffix === undefined ? null : `a special-use name (.${suffix})`;
}
