/** The catalog policy file (CATALOG_POLICY) read and parsed; every problem is a PolicyError naming the file. */
import { readFile } from 'node:fs/promises';
import { parsePolicy, PolicyError, type CatalogPolicy } from '../catalog/catalog-policy.js';

/** The policy in `path`; null when no file is configured. */
export async function readPolicyFile(path: string | null): Promise<CatalogPolicy | null> {
  if (path === null) return null;
  let text: string;
  try {
    text = await readFile(path, 'utf8');
  } catch (err) {
    throw new PolicyError(`CATALOG_POLICY ${path}: cannot read it (${err instanceof Error && 'code' in err ? String(err.code) : String(err)})`);
  }
  try {
    return parsePolicy(text);
  } catch (err) {
    if (err instanceof PolicyError) throw new PolicyError(`CATALOG_POLICY ${path}: ${err.message}`);
    throw err;
  }
}

/** Whether two policies say the same (lists compared in order: a reordered file counts as changed, which costs one pass). */
export function samePolicy(a: CatalogPolicy | null, b: CatalogPolicy | null): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}
