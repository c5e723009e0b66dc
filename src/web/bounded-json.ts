/**
 * Indented JSON for a page, bounded in depth and length: catalog schemas are hostile, and
 * JSON.stringify's indentation grows with the square of the depth (a schema 1,000 levels deep
 * is megabytes of spaces). Within the bounds the text is what JSON.stringify(value, null, 2) gives.
 */

export interface JsonShown {
  readonly text: string;
  /** Whether something was left out (too deep, or past the length). */
  readonly cut: boolean;
}

export function boundedJson(value: unknown, limits: { readonly depth: number; readonly chars: number }): JsonShown {
  const parts: string[] = [];
  let length = 0;
  let full = false;
  let cut = false;
  const push = (text: string): boolean => {
    if (full || length + text.length > limits.chars) {
      full = true;
      cut = true;
      return false;
    }
    parts.push(text);
    length += text.length;
    return true;
  };
  // Recursion stops at `limits.depth`, so no value can exhaust the stack.
  const write = (item: unknown, level: number): void => {
    if (item === null || typeof item !== 'object') {
      push(JSON.stringify(item) ?? 'null');
      return;
    }
    const array = Array.isArray(item);
    const keys = array ? null : Object.keys(item);
    const size = array ? item.length : (keys?.length ?? 0);
    if (size === 0) {
      push(array ? '[]' : '{}');
      return;
    }
    if (level >= limits.depth) {
      cut = true;
      push(`"… nested deeper than ${limits.depth} levels: not shown"`);
      return;
    }
    const pad = '  '.repeat(level + 1);
    push(array ? '[\n' : '{\n');
    for (let i = 0; i < size && !full; i += 1) {
      const key = keys?.[i];
      if (!push(key === undefined ? pad : `${pad}${JSON.stringify(key)}: `)) break;
      write(key === undefined ? Reflect.get(item, i) : Reflect.get(item, key), level + 1);
      push(i < size - 1 ? ',\n' : '\n');
    }
    push(`${'  '.repeat(level)}${array ? ']' : '}'}`);
  };
  write(value, 0);
  const text = parts.join('');
  return { text: full ? `${text}\n… (longer than shown: cut here)` : text, cut };
}
