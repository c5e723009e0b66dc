/**
 * Area B read services: search, lookups and categories. Plain arguments in, contract shapes
 * out; the REST handlers and (later) the MCP tools both call these.
 */
import { AppError } from '../errors.js';
import type { CatalogReader } from '../store/index.js';
import type { Authentication, CategoryList, Server, ServerPage, ServerSort, Tool, ToolPage, ToolSort } from '../types.js';

/** What every search takes: text, a sort of its own kind, and a page. */
interface SearchInput<Sort> {
  readonly q?: string | undefined;
  readonly sort?: Sort | undefined;
  readonly limit?: number | undefined;
  readonly offset?: number | undefined;
}

export interface ServerSearchInput extends SearchInput<ServerSort> {
  readonly category?: string | undefined;
}

export interface ToolSearchInput extends SearchInput<ToolSort> {
  readonly authentication?: Authentication | undefined;
}

export interface RegistryService {
  searchServers(input: ServerSearchInput): Promise<ServerPage>;
  searchTools(input: ToolSearchInput): Promise<ToolPage>;
  getServer(idOrName: string): Promise<Server>;
  getServerByDomain(domain: string): Promise<Server>;
  getTool(id: string): Promise<Tool>;
  listCategories(): Promise<CategoryList>;
}

export const DEFAULT_LIMIT = 20;
const MAX_TERMS = 12;

/** A query as the index sees it: an FTS5 expression of prefix terms, and the normalized text. */
export interface ParsedQuery {
  readonly text: string;
  /** null when the text has no searchable word (e.g. only punctuation). */
  readonly match: string | null;
}

/** Every word of the query must match, each as a prefix. Returns null for an absent or blank query. */
export function parseQuery(q: string | undefined): ParsedQuery | null {
  const text = (q ?? '').normalize('NFKC').trim().toLowerCase().replace(/\s+/g, ' ');
  if (text === '') return null;
  const terms = (text.match(/[\p{L}\p{N}]+/gu) ?? []).slice(0, MAX_TERMS);
  return { text, match: terms.length > 0 ? terms.map((term) => `"${term}"*`).join(' ') : null };
}

/**
 * The query, applied sort and page of a search: `relevance` is the default with a query and
 * `a-z` without, and `relevance` without a query is applied as `a-z`.
 */
function resolveSearch<Sort extends string>(input: SearchInput<Sort | 'relevance' | 'a-z'>) {
  const query = parseQuery(input.q);
  const requested = input.sort ?? (query ? 'relevance' : 'a-z');
  const sort = requested === 'relevance' && !query ? 'a-z' : requested;
  return { query, sort, limit: input.limit ?? DEFAULT_LIMIT, offset: input.offset ?? 0 };
}

export function createRegistryService(catalog: CatalogReader): RegistryService {
  const categorySlugs = async (): Promise<string[]> => (await catalog.listCategories()).map((c) => c.slug);

  return {
    async searchServers(input) {
      const { query, sort, limit, offset } = resolveSearch<ServerSort>(input);
      const category = input.category ?? null;
      if (category !== null && !(await categorySlugs()).includes(category)) {
        throw new AppError('validation_failed', `Unknown category "${category}".`, [
          { location: 'query.category', message: `must be one of: ${(await categorySlugs()).join(', ')}` },
        ]);
      }
      const envelope = { limit, offset, sort, query: query?.text ?? null, category };
      if (query && query.match === null) return { items: [], total: 0, ...envelope };
      const page = await catalog.searchServers({ match: query?.match ?? null, text: query?.text ?? null, category, sort, limit, offset });
      return { items: page.items, total: page.total, ...envelope };
    },

    async searchTools(input) {
      const { query, sort, limit, offset } = resolveSearch<ToolSort>(input);
      const authentication = input.authentication ?? null;
      const envelope = { limit, offset, sort, query: query?.text ?? null, authentication };
      if (query && query.match === null) return { items: [], total: 0, ...envelope };
      const page = await catalog.searchTools({ match: query?.match ?? null, text: query?.text ?? null, authentication, sort, limit, offset });
      return { items: page.items, total: page.total, ...envelope };
    },

    async getServer(idOrName) {
      const server = await catalog.findServer(idOrName);
      if (!server) throw new AppError('not_found', `No server has the id or name "${idOrName}". Search with GET /api/v1/servers/search?q=…`);
      return server;
    },

    async getServerByDomain(domain) {
      const id = await catalog.findServerIdByDomain(domain.toLowerCase().replace(/\.$/, ''));
      const server = id === null ? null : await catalog.findServer(id);
      if (!server) throw new AppError('not_found', `No server has a remote endpoint on "${domain}".`);
      return server;
    },

    async getTool(id) {
      const tool = await catalog.findTool(id);
      if (!tool) throw new AppError('not_found', `No tool has the id "${id}". Search with GET /api/v1/tools/search?q=…`);
      return tool;
    },

    async listCategories() {
      const items = await catalog.listCategories();
      return { items, total: items.length };
    },
  };
}
