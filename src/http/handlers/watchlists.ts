/**
 * Handlers of the `watchlists` tag and the watchlist page: createWatchlist, listWatchlists,
 * getWatchlist, deleteWatchlist, and the watchlist pages. Who may call them is checked before routing
 * (src/http/watchlist-gate.ts).
 */
import { JsonText } from '../../json.js';
import { Answer } from '../../read/answer.js';
import type { WatchlistPages } from '../../web/watchlist-pages.js';
import type { Watchlist, WatchlistService } from '../../watchlists/watchlist-service.js';
import type { HandlerMap } from '../operation.js';

type WatchlistOperations = 'createWatchlist' | 'listWatchlists' | 'getWatchlist' | 'deleteWatchlist' | 'getWatchlistPage' | 'getWatchlistsPage' | 'submitWatchlistsPage';

export function watchlistHandlers(watchlists: WatchlistService, pages: WatchlistPages): Pick<HandlerMap, WatchlistOperations> {
  return {
    createWatchlist: async ({ body }) => {
      const { watchlist, secret } = await watchlists.create(body);
      return { status: 201, body: withSecret(watchlist, secret), headers: { Location: `/api/v1/watchlists/${watchlist.id}` } };
    },
    listWatchlists: async () => ({ status: 200, body: { items: await watchlists.list() } }),
    getWatchlist: async ({ path }) => ({ status: 200, body: await watchlists.get(path.id) }),
    deleteWatchlist: async ({ path }) => {
      await watchlists.remove(path.id);
      return { status: 204 };
    },
    getWatchlistPage: async ({ path }) => ({ status: 200, text: (await pages.watchlist(path.id)).text }),
    getWatchlistsPage: async () => ({ status: 200, text: pages.tokenForm().text }),
    submitWatchlistsPage: async ({ body }) => {
      const page = await pages.list(body.token ?? '');
      return page.status === 401 ? { status: 401, text: page.text } : { status: 200, text: page.text };
    },
  };
}

/**
 * The created watchlist with its webhook's secret (`webhook.secret`). The encoder takes every
 * secret-named value out of an answer, so the rest is scrubbed as usual and the secret, meant
 * for this caller this once, is added after.
 */
function withSecret(watchlist: Watchlist, secret: string | null): Watchlist | Answer<Watchlist> {
  const scrubbed = Answer.of(watchlist).value;
  if (secret === null || scrubbed.webhook === null) return scrubbed;
  return Answer.of(new JsonText<Watchlist>(JSON.stringify({ ...scrubbed, webhook: { ...scrubbed.webhook, secret } })));
}
