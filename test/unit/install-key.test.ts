/**
 * Install keys: what distinguishes a server, not a word every server shares, and a
 * different key for every server of the catalog (ingest adds `-2`, `-3`… to a taken key).
 */
import { expect } from 'chai';
import { uniqueId } from '../../src/catalog/ids.js';
import { assignInstallKeys, installKeyBase } from '../../src/catalog/install-key.js';

describe('install keys', () => {
  const cases: Array<[string, string, string]> = [
    ['com.notion/mcp', 'notion', 'a generic last segment gives way to the publisher'],
    ['com.stripe/mcp', 'stripe', 'a generic last segment gives way to the publisher'],
    ['com.supabase/mcp', 'supabase', 'a generic last segment gives way to the publisher'],
    ['com.cloudflare/mcp-server', 'cloudflare', '`mcp-server` is generic too'],
    ['com.figma.mcp/mcp', 'figma', 'namespace labels that name no publisher are skipped'],
    ['io.github.someone/remote', 'someone', 'a code host is not the publisher'],
    ['com.gitlab/mcp', 'gitlab', 'a code host is the publisher of its own server'],
    ['io.github/remote', 'github', 'a code host alone is the publisher'],
    ['io.github.stripe/agent-toolkit', 'agent-toolkit', 'a distinctive last segment is the key'],
    ['io.github.github/github-mcp-server', 'github', '`-mcp-server` around the product name goes'],
    ['@modelcontextprotocol/server-github', 'github', 'a `server-` prefix goes'],
    ['mcp/stripe-remote', 'stripe', 'a `-remote` suffix goes'],
    ['co.huggingface/hf-mcp-server', 'hf', 'boilerplate at the end goes'],
    ['@supabase/mcp-server', 'supabase', 'an npm scope is the publisher'],
    ['io.github.Acme/Weather_Service', 'weather-service', 'lower-case, dashes only'],
    ['notion', 'notion', 'a name without a namespace is its own key'],
    ['mcp', 'mcp', 'nothing better than a generic name: the name'],
  ];
  for (const [name, key, why] of cases) {
    it(`installs ${name} as "${key}": ${why}`, () => {
      expect(installKeyBase(name)).to.equal(key);
    });
  }

  it('keeps every key to the characters client configurations and shells take, 64 at most', () => {
    for (const name of ['io.github.x/' + 'very-long-name-'.repeat(10), 'com.ex/ä ö ü!', 'a.b/-.-', '@@@/???']) {
      expect(installKeyBase(name), name).to.match(/^[a-z0-9](?:[a-z0-9-]{0,62}[a-z0-9])?$/);
    }
  });

  it('gives the second server with the same base its own key, as ingest does', () => {
    const taken = new Set(['notion']);
    expect(uniqueId(installKeyBase('io.github.other/notion-mcp'), (k) => taken.has(k))).to.equal('notion-2');
  });

  it('gives the plain key to the publisher\'s own server, then the others in creation order, never a key already taken', () => {
    const taken = new Set(['stripe']);
    const keys = assignInstallKeys([['a', 'ai.waystation/supabase'], ['b', 'com.supabase/mcp'], ['c', 'io.github.x/supabase-mcp'], ['d', 'com.stripe/mcp']], taken);
    expect(Object.fromEntries(keys)).to.deep.equal({ b: 'supabase', a: 'supabase-2', c: 'supabase-3', d: 'stripe-2' });
    expect([...taken].sort()).to.deep.equal(['stripe', 'stripe-2', 'supabase', 'supabase-2', 'supabase-3']);
  });
});
