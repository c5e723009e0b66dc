/** The watchlist page as a service: the watchlist service's record, rendered (pages/watchlist.tsx). */
import type { WatchlistService } from '../watchlists/watchlist-service.js';
import type { AssetCatalog } from './assets.js';
import { WatchlistPage } from './pages/watchlist.js';
import { renderPage } from './render.js';
import type { PageReply } from './web-pages.js';

export interface WatchlistPages {
  watchlist(id: string): Promise<PageReply>;
}

export function createWatchlistPages(watchlists: WatchlistService, assets: AssetCatalog): WatchlistPages {
  return {
    async watchlist(id) {
      return { status: 200, text: renderPage(<WatchlistPage assets={assets} watchlist={await watchlists.get(id)} />) };
    },
  };
}
