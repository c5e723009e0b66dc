/**
 * "Try it" on a server page, one panel per catalogued Streamable HTTP endpoint. The enhancing
 * script (static/app.js) connects through POST /api/v1/proxy/connect, builds a form per tool from
 * its input schema and calls it through /api/v1/proxy/invoke. Header values the user types are
 * read at each request and sent with it, never stored (autocomplete off, no storage).
 */
import type { Remote } from '../../types.js';

export function TryItSection({ serverId, remotes }: { readonly serverId: string; readonly remotes: readonly Remote[] }) {
  const endpoints = remotes.filter((remote) => remote.transport === 'streamable-http');
  if (endpoints.length === 0) return null;
  return (
    <section id="try" aria-labelledby="try-title" class="panel">
      <h2 id="try-title">Try it</h2>
      <p class="muted">
        Calls go through Sextant's proxy, which reaches only this server's catalogued endpoints. Values you type below are sent with each call and never stored.
      </p>
      <noscript><p class="notice">Trying a server needs JavaScript; everything else on this page works without it.</p></noscript>
      {endpoints.map((remote, index) => (
        <div class="try" data-try data-server={serverId} data-endpoint={remote.url}>
          <h3 class="endpoint-url"><code>{remote.url}</code></h3>
          {remote.headers.length > 0 ? (
            <fieldset class="try-headers">
              <legend>Headers this endpoint declares</legend>
              {remote.headers.map((header, h) => (
                <div class="field">
                  <label for={`try-${index}-header-${h}`}>
                    {header.name} {header.isRequired ? '(required)' : '(optional)'}
                  </label>
                  {header.isSecret ? (
                    <input id={`try-${index}-header-${h}`} type="password" data-header={header.name} autocomplete="off" />
                  ) : (
                    <input id={`try-${index}-header-${h}`} type="text" data-header={header.name} autocomplete="off" spellcheck={false} />
                  )}
                  {header.description ? <p class="hint">{header.description}</p> : null}
                </div>
              ))}
            </fieldset>
          ) : null}
          <button type="button" class="try-connect" hidden>Try it: connect and list tools</button>
          <div class="try-output" aria-live="polite" />
        </div>
      ))}
    </section>
  );
}
