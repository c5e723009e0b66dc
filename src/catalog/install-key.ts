/**
 * Install keys: the name a server gets in an MCP client's configuration
 * (`"mcpServers": {"notion": …}`, `claude mcp add … notion …`). A key says what distinguishes
 * the server — the product, not a word every server shares (`com.notion/mcp` → `notion`, not
 * `mcp`) — and is unique in the catalog: ingest assigns it once, when the server is created
 * (`uniqueId` appends `-2`, `-3`… in ingest order), and never changes it, so a user's
 * configuration keeps matching the catalog.
 */
import { slugOf, uniqueId } from './ids.js';

/** Last path segments that name no product: the publisher's label says more. */
const GENERIC = new Set(['mcp', 'server', 'servers', 'mcp-server', 'server-mcp', 'mcp-servers', 'remote', 'remote-mcp', 'mcp-remote', 'api', 'main', 'app', 'official', 'sse', 'http', 'stdio']);

/** Namespace labels that name no publisher (top-level domains and the like). */
const NOT_PUBLISHER = new Set(['com', 'io', 'ai', 'dev', 'org', 'net', 'app', 'co', 'cloud', 'tech', 'mcp', 'www', 'docker', 'hub']);

/** Code hosts: a publisher's account under one (`io.github.stripe`) is the publisher; the host is one only as the last label (`com.gitlab`). */
const CODE_HOSTS = new Set(['github', 'gitlab', 'bitbucket']);

/** The longest key: client configuration keys are short names (Cursor and Claude Code show them). */
const MAX_KEY = 64;

/** Lower-case, `[a-z0-9-]` only, no leading/trailing or repeated dashes. */
function keyOf(text: string): string {
  if (!/[\p{L}\p{N}]/u.test(text)) return '';
  return slugOf(text).replace(/[~._]+/g, '-').replace(/-{2,}/g, '-').replace(/^-+|-+$/g, '').slice(0, MAX_KEY).replace(/-+$/, '');
}

/** A segment without the `mcp`/`server` words around the product name (`server-github` → `github`, `notion-mcp-server` → `notion`, `stripe-remote` → `stripe`). */
function withoutBoilerplate(segment: string): string {
  let key = keyOf(segment);
  for (;;) {
    const next = key.replace(/^(mcp|server|model-context-protocol)-/, '').replace(/-(mcp|server|remote|model-context-protocol)$/, '');
    if (next === key || next === '') return key;
    key = next;
  }
}

/**
 * The recognisable part of a canonical name, before the catalog makes it unique: the last path
 * segment without boilerplate, or the publisher's label when that segment is generic
 * (`com.notion/mcp` → `notion`, `io.github.stripe/mcp` → `stripe`, `@supabase/mcp-server` →
 * `supabase`, `io.github.acme/weather-mcp` → `weather`).
 */
export function installKeyBase(name: string): string {
  const slash = name.lastIndexOf('/');
  const segment = withoutBoilerplate(name.slice(slash + 1));
  if (segment !== '' && !GENERIC.has(segment)) return segment;
  const namespace = slash < 0 ? '' : name.slice(0, slash).replace(/^@/, '');
  const labels = namespace.split(/[./]/).map(keyOf).filter((label) => label !== '' && !NOT_PUBLISHER.has(label) && !GENERIC.has(label));
  const publisher = labels.filter((label, i) => !CODE_HOSTS.has(label) || i === labels.length - 1).at(-1);
  return publisher ?? (segment || 'server');
}

/** Whether the base is the publisher's own name (`com.supabase/mcp` for `supabase`), not another's use of it (`ai.waystation/supabase`). */
function isPublisherOf(name: string, base: string): boolean {
  const slash = name.lastIndexOf('/');
  return slash >= 0 && name.slice(0, slash).replace(/^@/, '').split(/[./]/).map(keyOf).includes(base);
}

/**
 * Keys for servers being created, unique among themselves and against `taken` (which gains
 * them): where several want one base, the publisher's own server gets the plain key, then the
 * others in the order given (`-2`, `-3`…). `servers` is [id, canonical name] in creation order.
 */
export function assignInstallKeys(servers: ReadonlyArray<readonly [string, string]>, taken: Set<string>): Map<string, string> {
  const wanted = servers.map(([id, name], order) => {
    const base = installKeyBase(name);
    return { id, base, owner: isPublisherOf(name, base), order };
  });
  wanted.sort((a, b) => Number(b.owner) - Number(a.owner) || a.order - b.order);
  const keys = new Map<string, string>();
  for (const { id, base } of wanted) {
    const key = uniqueId(base, (candidate) => taken.has(candidate));
    taken.add(key);
    keys.set(id, key);
  }
  return keys;
}
