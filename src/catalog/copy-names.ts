/**
 * Copies among a namespace's names, for the `duplicate` quality rule (quality.ts): a numbered,
 * local, dev or test copy of another server of the same publisher.
 */

/**
 * A copy marker at the end of a name: a number (`-1`, `2`), or local, dev, copy, test… with a
 * number or not (`-local02`). Versions (`-v2`) are not copies.
 */
const COPY_MARKER = /^(.+?)(?:[-_.]?(\d{1,3})|[-_.](local|dev|copy|tmp|temp|test|staging|backup|old)\d*)$/;

/**
 * Whether `name` is a copy of another server of its namespace: the name with its copy markers
 * taken off is another's (`cuongpo-coti-mcp-1` beside `cuongpo-coti-mcp`), or, taken down to a
 * single word by a local, dev or test marker, the handle the publisher's others start with
 * (`arjunkmrm-local02` beside `arjunkmrm-time`).
 */
export function isCopy(name: string, siblings: ReadonlySet<string> | undefined): boolean {
  if (siblings === undefined || siblings.size === 0) return false;
  const lower = name.toLowerCase();
  const slash = lower.lastIndexOf('/');
  // Bare names (toolsdk's) share no namespace: their publishers are unknown.
  if (slash <= 0) return false;
  const namespace = lower.slice(0, slash + 1);
  let rest = lower.slice(slash + 1);
  for (let marker = COPY_MARKER.exec(rest); marker !== null; marker = COPY_MARKER.exec(rest)) {
    rest = marker[1] as string;
    if (siblings.has(namespace + rest)) return true;
    // A single word, after the host's prefix of a mirrored name (`@toolsdk-remote/ai-smithery-someone-…`).
    if (marker[3] !== undefined && /^(?:ai-smithery-|io-github-)?[\p{L}\p{N}]{3,}$/u.test(rest)) {
      const handle = `${namespace}${rest}-`;
      for (const sibling of siblings) if (sibling !== lower && sibling.startsWith(handle)) return true;
    }
  }
  return false;
}
