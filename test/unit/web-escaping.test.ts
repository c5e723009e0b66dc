/** The web pages' escaping and link rules on their own: only http(s) becomes a link, and rendered text is never markup. */
import { expect } from 'chai';
import { renderToString } from 'preact-render-to-string';
import { ExternalLink } from '../../src/web/components.js';
import { installLinkHref, isPagePath, safeHref } from '../../src/web/security.js';
import { shellLine } from '../../src/web/pages/server-install.js';

describe('web escaping and links', () => {
  const cases: Array<[string, string | null]> = [
    ['https://github.com/acme/weather', 'https://github.com/acme/weather'],
    ['http://example.org/a?b=1', 'http://example.org/a?b=1'],
    ['javascript:alert(1)', null],
    ['JAVASCRIPT:alert(1)', null],
    [' javascript:alert(1)', null],
    ['data:text/html,<script>alert(1)</script>', null],
    ['vbscript:msgbox', null],
    ['/relative', null],
    ['not a url', null],
  ];
  for (const [url, expected] of cases) {
    it(`links ${JSON.stringify(url)} ${expected ? 'as http(s)' : 'never'}`, () => {
      expect(safeHref(url)).to.equal(expected);
    });
  }

  it('renders a javascript: URL as inert text and escapes markup in it', () => {
    const html = renderToString(ExternalLink({ href: 'javascript:alert("<b>")' }));
    expect(html).to.equal('<span class="unlinked">javascript:alert(&quot;&lt;b>&quot;)</span>');
  });

  it('links install deep links Sextant builds, and nothing else of another scheme', () => {
    expect(installLinkHref('cursor://anysphere.cursor-deeplink/mcp/install?name=a&config=e30=')).to.match(/^cursor:/);
    expect(installLinkHref('vscode:mcp/install?%7B%7D')).to.match(/^vscode:/);
    expect(installLinkHref('cursor://evil/x')).to.equal(null);
    expect(installLinkHref('javascript:alert(1)')).to.equal(null);
  });

  it('tells page paths from API paths', () => {
    for (const path of ['/', '/servers', '/docs', '/apis', '/mcpx', '/openapi.jsonx']) expect(isPagePath(path), path).to.equal(true);
    for (const path of ['/api', '/api/v1/servers/search', '/v0.1/servers', '/mcp', '/openapi.json', '/healthz', '/readyz']) expect(isPagePath(path), path).to.equal(false);
  });

  it('quotes a command line so a shell reads back the same tokens', () => {
    expect(shellLine(['claude', 'mcp', 'add', '--header', 'Authorization: Bearer <TOKEN>', 'x'])).to.equal("claude mcp add --header 'Authorization: Bearer <TOKEN>' x");
    expect(shellLine(["it's"])).to.equal(`'it'\\''s'`);
  });
});
