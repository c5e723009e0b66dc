/** The frame of every page: head (title, description, our stylesheet and script), header with navigation, main landmark, footer. */
import { createContext, type ComponentChildren } from 'preact';
import { useContext } from 'preact/hooks';
import type { AssetCatalog } from './assets.js';

export type Section = 'home' | 'servers' | 'tools' | 'compare' | 'assess' | 'docs' | 'none';

/** What every page's frame shows that is the deployment's, not the page's; set once per rendering (render.ts). */
export interface PageFrame {
  /** Whether the header offers "Sign out" (a POST to /logout, operation submitLogoutPage). */
  readonly signOut: boolean;
}

export const PageFrameContext = createContext<PageFrame>({ signOut: false });

export interface LayoutProps {
  readonly assets: AssetCatalog;
  readonly title: string;
  readonly description: string;
  readonly section: Section;
  readonly children: ComponentChildren;
  /** Extra head content (the docs page's renderer). */
  readonly head?: ComponentChildren;
  /** Whether to load the enhancing script (every page but /docs). */
  readonly script?: boolean;
}

const NAV: ReadonlyArray<{ section: Section; href: string; label: string }> = [
  { section: 'servers', href: '/servers', label: 'Servers' },
  { section: 'tools', href: '/tools', label: 'Tools' },
  { section: 'compare', href: '/compare', label: 'Compare' },
  { section: 'assess', href: '/assess', label: 'Assess a business' },
  { section: 'docs', href: '/docs', label: 'API' },
];

export function Layout(props: LayoutProps) {
  const fullTitle = props.section === 'home' ? props.title : `${props.title} · Sextant`;
  const { signOut } = useContext(PageFrameContext);
  return (
    <html lang="en">
      <head>
        <meta charset="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <title>{fullTitle}</title>
        <meta name="description" content={props.description} />
        <meta property="og:title" content={fullTitle} />
        <meta property="og:description" content={props.description} />
        <link rel="icon" href={props.assets.url('icon.svg')} type="image/svg+xml" />
        <link rel="stylesheet" href={props.assets.url('app.css')} />
        {props.head}
        {props.script === false ? null : <script src={props.assets.url('app.js')} defer />}
      </head>
      <body>
        <a class="skip" href="#main">Skip to content</a>
        <header class="site-header">
          <div class={signOut ? 'wrap header-row signed-in' : 'wrap header-row'}>
            <a class="brand" href="/" aria-label="Sextant home">
              <Mark />
              <span>Sextant</span>
            </a>
            <nav aria-label="Main">
              <ul class="nav">
                {NAV.map((item) => (
                  <li>
                    <a href={item.href} aria-current={item.section === props.section ? 'page' : undefined}>{item.label}</a>
                  </li>
                ))}
              </ul>
            </nav>
            {signOut ? (
              <form class="sign-out" method="post" action="/logout">
                <button type="submit">Sign out</button>
              </form>
            ) : null}
          </div>
        </header>
        <main id="main" class="wrap" tabIndex={-1}>
          {props.children}
        </main>
        <footer class="site-footer">
          <div class="wrap">
            <p>
              Sextant: a registry of MCP servers and their tools, and observations of a business's web estate.
              Everything here is also an API: <a href="/docs">reference</a>, <a href="/openapi.json">OpenAPI document</a>, MCP at <code>/mcp</code>.
            </p>
          </div>
        </footer>
      </body>
    </html>
  );
}

/** The sextant mark: an arc and a sight line. */
function Mark() {
  return (
    <svg class="mark" width="28" height="28" viewBox="0 0 32 32" aria-hidden="true" focusable="false">
      <path d="M4 26 A22 22 0 0 1 26 4" fill="none" stroke="currentColor" stroke-width="3" stroke-linecap="round" />
      <path d="M6 24 L24 6" stroke="currentColor" stroke-width="2" stroke-linecap="round" />
      <circle cx="6" cy="24" r="3" fill="currentColor" />
    </svg>
  );
}
