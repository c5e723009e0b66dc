/** `1 tool`, `2 tools`, `1,200 tools`: a count with its noun, for pages and for the sentences of assessments. */
export function plural(count: number, one: string, many = `${one}s`): string {
  return `${count.toLocaleString('en-US')} ${count === 1 ? one : many}`;
}
