/**
 * What `a-z` and `z-a` sort servers and tools by: the display name lower-cased, with what leads
 * it before its first letter or digit left out, so `_________available…` sorts under `a` and
 * `@scope/tool` under `s`. A name of punctuation only keeps it all.
 */
export function browseNameOf(text: string): string {
  const lower = text.toLowerCase();
  const start = lower.search(/[\p{L}\p{N}]/u);
  return start <= 0 ? lower : lower.slice(start);
}
