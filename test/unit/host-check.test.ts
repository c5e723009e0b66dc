import { expect } from 'chai';
import { createHostCheck } from '../../src/http/host-check.js';
import { isLoopbackHost, parseHost } from '../../src/net/host-names.js';

const PORT = 3000;

describe('Host check (DNS rebinding)', () => {
  describe('bound to loopback, nothing named', () => {
    const allowed = createHostCheck({ host: '127.0.0.1', publicUrl: null, allowedHosts: [] });
    const cases: Array<[string | undefined, boolean]> = [
      ['127.0.0.1:3000', true],
      ['localhost:3000', true],
      ['LocalHost:3000', true],
      ['app.localhost:3000', true],
      ['[::1]:3000', true],
      ['127.0.0.2:3000', true],
      ['[::ffff:127.0.0.1]:3000', true],
      ['evil.example.com:3000', false],
      ['evil.example.com', false],
      ['127.0.0.1:3001', false],
      ['localhost', false],
      ['localhost.:3000', false],
      ['localhost.evil.example:3000', false],
      ['10.0.0.1:3000', false],
      ['93.184.216.34:3000', false],
      ['127.0.0.1:3000@evil.example', false],
      ['127.0.0.1:3000/x', false],
      ['', false],
      [undefined, false],
    ];
    for (const [host, expected] of cases) {
      it(`${expected ? 'answers' : 'refuses'} Host ${JSON.stringify(host)}`, () => {
        expect(allowed(host, PORT)).to.equal(expected);
      });
    }
  });

  it('answers the host of PUBLIC_URL on its port, in any case, and nothing else by name', () => {
    const allowed = createHostCheck({ host: '127.0.0.1', publicUrl: 'https://sextant.example.com', allowedHosts: [] });
    expect(allowed('sextant.example.com', PORT)).to.equal(true);
    expect(allowed('sextant.example.com:443', PORT)).to.equal(true);
    expect(allowed('Sextant.Example.com', PORT)).to.equal(true);
    expect(allowed('sextant.example.com:8443', PORT)).to.equal(false);
    expect(allowed('other.example.com', PORT)).to.equal(false);
    expect(allowed('127.0.0.1:3000', PORT), 'loopback stays answered').to.equal(true);
  });

  it('answers ALLOWED_HOSTS entries on any port, or on the port they name', () => {
    const allowed = createHostCheck({ host: '127.0.0.1', publicUrl: null, allowedHosts: ['api.example.org', 'lb.example.org:8080'] });
    expect(allowed('api.example.org', PORT)).to.equal(true);
    expect(allowed('api.example.org:9999', PORT)).to.equal(true);
    expect(allowed('lb.example.org:8080', PORT)).to.equal(true);
    expect(allowed('lb.example.org', PORT)).to.equal(false);
  });

  it('bound beyond loopback without names: answers IP addresses with the bound port, refuses every name but loopback ones', () => {
    for (const host of ['0.0.0.0', '::', '10.0.0.5']) {
      const allowed = createHostCheck({ host, publicUrl: null, allowedHosts: [] });
      expect(allowed('10.0.0.5:3000', PORT), host).to.equal(true);
      expect(allowed('[2001:db8::5]:3000', PORT), host).to.equal(true);
      expect(allowed('10.0.0.5:3001', PORT), host).to.equal(false);
      expect(allowed('localhost:3000', PORT), host).to.equal(true);
      expect(allowed('sextant.example.com:3000', PORT), host).to.equal(false);
    }
  });

  it('decides each Host and arrival port afresh', () => {
    const check = createHostCheck({ host: '127.0.0.1', publicUrl: null, allowedHosts: [] });
    for (let round = 0; round < 2; round += 1) {
      expect(check('localhost:3000', 3000)).to.equal(true);
      expect(check('localhost:3000', 4000)).to.equal(false);
      expect(check('evil.example:3000', 3000)).to.equal(false);
      expect(check(undefined, 3000)).to.equal(false);
    }
    // Many distinct Host values: each decided as it should be.
    for (let i = 0; i < 600; i += 1) expect(check(`127.0.${i % 256}.1:3000`, 3000), `127.0.${i % 256}.1`).to.equal(true);
    for (let i = 0; i < 600; i += 1) expect(check(`name${i}.example:3000`, 3000)).to.equal(false);
    expect(check('localhost:3000', 3000)).to.equal(true);
  });

  it('knows loopback names and addresses', () => {
    for (const host of ['localhost', 'x.localhost', '127.0.0.1', '127.255.0.1', '::1', '[::1]']) expect(isLoopbackHost(host), host).to.equal(true);
    for (const host of ['0.0.0.0', '::', '10.0.0.1', 'localhost.example', 'example.com']) expect(isLoopbackHost(host), host).to.equal(false);
  });

  it('parses Host headers as URLs read them', () => {
    expect(parseHost('Example.COM:8080')).to.deep.equal({ hostname: 'example.com', port: 8080 });
    expect(parseHost('[::1]')).to.deep.equal({ hostname: '::1', port: null });
    expect(parseHost('[::1]:80')).to.deep.equal({ hostname: '::1', port: 80 });
    expect(parseHost('example.com:443')).to.deep.equal({ hostname: 'example.com', port: 443 });
    for (const bad of ['a b', 'user@host', 'host/path', 'host:99999', 'host?x', '']) expect(parseHost(bad), bad).to.equal(null);
  });
});
