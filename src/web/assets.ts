/**
 * The web pages' static files (operation getAsset): our stylesheet and scripts from
 * src/web/static, and Swagger UI from our own node_modules (no third-party host). Each is served
 * under a name carrying its content's hash, so a name never changes meaning and browsers keep
 * it for a year; pages link to the hashed names.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A static file as served: its bytes, its media type, the hashed name it is served under. */
export interface Asset {
  readonly name: string;
  readonly type: string;
  readonly bytes: Buffer;
}

/** The files pages refer to, by their plain names. */
export type AssetName = 'app.css' | 'app.js' | 'icon.svg' | 'docs.css' | 'docs.js' | 'swagger-ui.css' | 'swagger-ui-bundle.js';

/**
 * src/web/static of the package this module belongs to: the nearest folder above this file
 * that has it (src/web under tsx, dist/web after the build, a bench build elsewhere).
 */
function staticFolder(): string {
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = join(dir, 'src', 'web', 'static');
    if (existsSync(join(candidate, 'app.css'))) return candidate;
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`src/web/static not found above ${fileURLToPath(import.meta.url)}`);
    dir = parent;
  }
}

const STATIC = staticFolder();

function swaggerFile(file: string): string {
  const require = createRequire(import.meta.url);
  return join(dirname(require.resolve('swagger-ui-dist/package.json')), file);
}

const SOURCES: Readonly<Record<AssetName, string>> = {
  'app.css': join(STATIC, 'app.css'),
  'app.js': join(STATIC, 'app.js'),
  'icon.svg': join(STATIC, 'icon.svg'),
  'docs.css': join(STATIC, 'docs.css'),
  'docs.js': join(STATIC, 'docs.js'),
  'swagger-ui.css': swaggerFile('swagger-ui.css'),
  'swagger-ui-bundle.js': swaggerFile('swagger-ui-bundle.js'),
};

const ASSET_NAMES: readonly AssetName[] = ['app.css', 'app.js', 'icon.svg', 'docs.css', 'docs.js', 'swagger-ui.css', 'swagger-ui-bundle.js'];

const TYPES: Readonly<Record<string, string>> = { css: 'text/css; charset=utf-8', js: 'text/javascript; charset=utf-8', svg: 'image/svg+xml' };

export interface AssetCatalog {
  /** The path a page links to for `name` (`/assets/app-1a2b3c4d.css`). */
  url(name: AssetName): string;
  /** The file served under a hashed name, if there is one. */
  find(file: string): Asset | undefined;
}

/** Reads every static file once; a missing file fails the start, not a request. */
export function loadAssets(): AssetCatalog {
  const byPlainName = new Map<AssetName, Asset>();
  const byServedName = new Map<string, Asset>();
  for (const plain of ASSET_NAMES) {
    const bytes = readFileSync(SOURCES[plain]);
    const dot = plain.lastIndexOf('.');
    const extension = plain.slice(dot + 1);
    const hash = createHash('sha256').update(bytes).digest('hex').slice(0, 10);
    const asset = { name: `${plain.slice(0, dot)}-${hash}.${extension}`, type: TYPES[extension] ?? 'application/octet-stream', bytes };
    byPlainName.set(plain, asset);
    byServedName.set(asset.name, asset);
  }
  return {
    url: (name) => `/assets/${byPlainName.get(name)?.name ?? name}`,
    find: (file) => byServedName.get(file),
  };
}
