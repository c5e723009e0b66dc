/**
 * The code's imports form no loop: no file imports one that (through others) imports it back,
 * and no folder of src/ imports one that imports it back (issue 21). Read from the source text:
 * every relative `import … from` and `export … from` of src/**.ts and src/**.tsx.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { expect } from 'chai';

const SRC = fileURLToPath(new URL('../../src/', import.meta.url));
const IMPORT = /^\s*(?:import|export)\s[^'"]*?from\s+'(\.{1,2}\/[^']+)'/gm;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return /\.tsx?$/.test(entry.name) ? [path] : [];
  });
}

/** The source file an import of `x.js` names: `x.ts`, or `x.tsx` for the web pages. */
function sourceOf(target: string): string {
  const ts = target.replace(/\.js$/, '.ts');
  return existsSync(ts) ? ts : target.replace(/\.js$/, '.tsx');
}

/** Each file of src/ (relative path) with the files of src/ it imports. */
function importGraph(): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  for (const file of sourceFiles(SRC)) {
    const targets = [...readFileSync(file, 'utf8').matchAll(IMPORT)]
      .map((match) => sourceOf(resolve(dirname(file), match[1] ?? '')))
      .filter((target) => target.startsWith(SRC) && /\.tsx?$/.test(target))
      .map((target) => relative(SRC, target));
    graph.set(relative(SRC, file), targets);
  }
  return graph;
}

/** The first loop found in `graph`, as the path around it; null if there is none. */
function loopIn(graph: ReadonlyMap<string, readonly string[]>): string[] | null {
  const state = new Map<string, 'open' | 'done'>();
  const path: string[] = [];
  const visit = (node: string): string[] | null => {
    if (state.get(node) === 'done') return null;
    if (state.get(node) === 'open') return [...path.slice(path.indexOf(node)), node];
    state.set(node, 'open');
    path.push(node);
    for (const next of graph.get(node) ?? []) {
      const loop = visit(next);
      if (loop) return loop;
    }
    path.pop();
    state.set(node, 'done');
    return null;
  };
  for (const node of graph.keys()) {
    const loop = visit(node);
    if (loop) return loop;
  }
  return null;
}

/** A file's folder under src/ (`store`, `http`); files at the top are each their own. */
const folderOf = (file: string): string => (file.includes('/') ? (file.split('/')[0] ?? file) : file);

describe('import graph of src/', () => {
  const graph = importGraph();

  it('reads every source file and its relative imports', () => {
    expect(graph.size).to.be.greaterThan(100);
    expect(graph.get('compose.ts')).to.include('read/read-model.ts');
  });

  it('has no loop between files', () => {
    expect(loopIn(graph)).to.equal(null);
  });

  it('has no loop between folders', () => {
    const folders = new Map<string, Set<string>>();
    for (const [file, targets] of graph) {
      const from = folderOf(file);
      const edges = folders.get(from) ?? new Set<string>();
      for (const target of targets) if (folderOf(target) !== from) edges.add(folderOf(target));
      folders.set(from, edges);
    }
    expect(loopIn(new Map([...folders].map(([folder, edges]) => [folder, [...edges]])))).to.equal(null);
  });

  it('finds a loop where there is one', () => {
    expect(loopIn(new Map([['a', ['b']], ['b', ['c']], ['c', ['a']]]))).to.deep.equal(['a', 'b', 'c', 'a']);
  });
});
