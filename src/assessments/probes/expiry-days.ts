/**
 * Days to an expiry are whole days rounded down, so a date passed 3.2 days ago gives -4. How long
 * ago it passed, in words: the whole days since, which is one fewer.
 */
import { plural } from '../../plural.js';

export function expiredAgo(daysToExpiry: number): string {
  const whole = -daysToExpiry - 1;
  return whole === 0 ? 'less than a day ago' : `${plural(whole, 'day')} ago`;
}
