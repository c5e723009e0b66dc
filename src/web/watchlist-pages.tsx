/** The watchlist pages as a service: the watchlist service's records, rendered (pages/watchlist.tsx, pages/watchlists.tsx). */
import type { WatchlistService } from '../watchlists/watchlist-service.js';
import { tokenMatches } from '../watchlists/token.js';
import type { AssetCatalog } from './assets.js';
import { WatchlistPage } from './pages/watchlist.js';
import { WatchlistsPage } from './pages/watchlists.js';
import { renderPage, type PageFrame } from './render.js';
import type { PageReply } from './web-pages.js';

export interface WatchlistPages {
  watchlist(id: string): Promise<PageReply>;
  /** The token form. */
  tokenForm(): PageReply;
  /** Every watchlist for the right token (200); the form again for another (401). */
  list(token: string): Promise<PageReply>;
}

/** `token`: WATCHLIST_TOKEN (the pages answer only while it is set: src/http/watchlist-gate.ts); `frame`: what every page's header shows beside the navigation. */
export function createWatchlistPages(watchlists: WatchlistService, assets: AssetCatalog, token: string | null, frame: PageFrame): WatchlistPages {
  return {
    tokenForm: () => ({ status: 200, text: renderPage(<WatchlistsPage assets={assets} data={{ watchlists: null }} />, frame) }),
    async list(given) {
      if (token === null || !tokenMatches(given, token)) {
        return { status: 401, text: renderPage(<WatchlistsPage assets={assets} data={{ watchlists: null, error: 'That is not the watchlist token. Ask the operator for the one set in WATCHLIST_TOKEN.' }} />, frame) };
      }
      return { status: 200, text: renderPage(<WatchlistsPage assets={assets} data={{ watchlists: await watchlists.list() }} />, frame) };
    },
    async watchlist(id) {
      return { status: 200, text: renderPage(<WatchlistPage assets={assets} watchlist={await watchlists.get(id)} />, frame) };
    },
  };
}
