import { expect } from 'chai';
import { createAddressPolicy, nonRoutableRange, parseCidrList } from '../../src/net/index.js';

/** [address, substring of the refusal reason]: one address inside every refused range. */
const refused: ReadonlyArray<readonly [string, string]> = [
  ['0.0.0.0', '0.0.0.0/8'],
  ['0.255.255.255', '0.0.0.0/8'],
  ['10.1.2.3', '10.0.0.0/8'],
  ['100.64.0.1', '100.64.0.0/10'],
  ['100.127.255.255', '100.64.0.0/10'],
  ['127.0.0.1', 'loopback 127.0.0.0/8'],
  ['127.255.255.254', 'loopback 127.0.0.0/8'],
  ['169.254.169.254', 'link-local 169.254.0.0/16'],
  ['172.16.0.1', '172.16.0.0/12'],
  ['172.31.255.255', '172.16.0.0/12'],
  ['192.0.0.8', '192.0.0.0/24'],
  ['192.0.2.1', '192.0.2.0/24'],
  ['192.88.99.1', '192.88.99.0/24'],
  ['192.168.1.1', '192.168.0.0/16'],
  ['198.18.0.1', '198.18.0.0/15'],
  ['198.19.255.255', '198.18.0.0/15'],
  ['198.51.100.7', '198.51.100.0/24'],
  ['203.0.113.5', '203.0.113.0/24'],
  ['224.0.0.1', 'multicast 224.0.0.0/4'],
  ['239.255.255.250', 'multicast 224.0.0.0/4'],
  ['240.0.0.1', '240.0.0.0/4'],
  ['255.255.255.255', 'broadcast 255.255.255.255/32'],
  ['::', 'unspecified'],
  ['::1', 'loopback ::1/128'],
  ['0:0:0:0:0:0:0:1', 'loopback ::1/128'],
  ['fe80::1', 'link-local fe80::/10'],
  ['fe80::1%eth0', 'link-local fe80::/10'],
  ['fc00::1', 'unique local fc00::/7'],
  ['fd12:3456::1', 'unique local fc00::/7'],
  ['ff02::1', 'multicast ff00::/8'],
  ['fec0::1', 'outside 2000::/3'],
  ['::8.8.8.8', 'outside 2000::/3'],
  ['100::1', 'outside 2000::/3'],
  ['2001::1', '2001::/23'],
  ['2001:1ff:ffff::1', '2001::/23'],
  ['2001:db8::1', 'documentation 2001:db8::/32'],
  ['2002::1', '6to4 2002::/16'],
  ['2002:7f00:1::1', '6to4 2002::/16'],
  ['::ffff:127.0.0.1', 'loopback 127.0.0.0/8 (IPv4-mapped 127.0.0.1)'],
  ['::ffff:7f00:1', 'loopback 127.0.0.0/8 (IPv4-mapped 127.0.0.1)'],
  ['::FFFF:10.0.0.1', '10.0.0.0/8 (IPv4-mapped 10.0.0.1)'],
  ['::ffff:169.254.169.254', 'link-local'],
  ['64:ff9b::7f00:1', 'loopback 127.0.0.0/8 (NAT64 127.0.0.1)'],
  ['64:ff9b::192.168.0.1', '192.168.0.0/16 (NAT64 192.168.0.1)'],
  ['64:ff9b:1::808:808', 'outside 2000::/3'],
];

/** Globally routable: public resolvers and the near-miss neighbours of every refused range. */
const allowed: readonly string[] = [
  '8.8.8.8',
  '1.1.1.1',
  '1.0.0.0',
  '9.255.255.255',
  '11.0.0.0',
  '100.63.255.255',
  '100.128.0.0',
  '126.255.255.255',
  '128.0.0.0',
  '169.253.255.255',
  '169.255.0.0',
  '172.15.255.255',
  '172.32.0.1',
  '192.0.1.255',
  '192.0.3.0',
  '192.88.98.255',
  '192.88.100.0',
  '192.167.255.255',
  '192.169.0.0',
  '198.17.255.255',
  '198.20.0.1',
  '198.51.99.255',
  '198.51.101.0',
  '203.0.112.255',
  '203.0.114.0',
  '223.255.255.255',
  '2606:4700::1111',
  '2001:4860:4860::8888',
  '2001:200::1',
  '2001:db7:ffff::1',
  '2001:db9::1',
  '2003::1',
  '2000::1',
  '3ffe::1',
  '::ffff:8.8.8.8',
  '::ffff:808:808',
  '64:ff9b::808:808',
  '64:ff9b::8.8.8.8',
];

describe('net address policy', () => {
  describe('nonRoutableRange', () => {
    for (const [address, reason] of refused) {
      it(`refuses ${address} as ${reason}`, () => {
        expect(nonRoutableRange(address)).to.be.a('string').that.contains(reason);
      });
    }
    for (const address of allowed) {
      it(`allows the globally routable ${address}`, () => {
        expect(nonRoutableRange(address)).to.equal(null);
      });
    }
    for (const notAnAddress of ['', 'localhost', '127.1', '0177.0.0.1', '2130706433', '[::1]', '1.2.3.4.5', '::1/128']) {
      it(`refuses ${JSON.stringify(notAnAddress)}, which is not an IP address`, () => {
        expect(nonRoutableRange(notAnAddress)).to.equal('not an IP address');
      });
    }
  });

  describe('createAddressPolicy', () => {
    it('refuses private addresses and allows public ones with an empty allow list', () => {
      const policy = createAddressPolicy([]);
      for (const [address] of refused) expect(policy.refusal(address), address).to.be.a('string');
      for (const address of allowed) expect(policy.refusal(address), address).to.equal(null);
    });

    it('lets 127.0.0.1/32 and ::1/128 through, and nothing else private', () => {
      const policy = createAddressPolicy(['127.0.0.1/32', '::1/128']);
      for (const address of ['127.0.0.1', '::1', '0::1', '::ffff:127.0.0.1', '8.8.8.8']) expect(policy.refusal(address), address).to.equal(null);
      for (const address of ['127.0.0.2', '10.0.0.1', '::2', 'fe80::1', '64:ff9b::7f00:1', '0.0.0.0', 'localhost']) {
        expect(policy.refusal(address), address).to.be.a('string');
      }
    });

    it('lets whole ranges through when the allow list names them', () => {
      const policy = createAddressPolicy(['10.0.0.0/8', 'fd00::/8', '192.168.1.5']);
      for (const address of ['10.0.0.1', '10.255.255.255', 'fd00::1', '192.168.1.5']) expect(policy.refusal(address), address).to.equal(null);
      for (const address of ['192.168.1.6', 'fc00::1', '172.16.0.1']) expect(policy.refusal(address), address).to.be.a('string');
    });

    it('throws on a bad allow-list entry', () => {
      expect(() => createAddressPolicy(['127.0.0.1/32', 'nope'])).to.throw(Error, '"nope"');
    });
  });

  describe('parseCidrList', () => {
    it('parses IPv4 and IPv6 CIDRs and bare addresses', () => {
      expect(parseCidrList(['127.0.0.1/32', ' 10.0.0.0/8 ', '::1/128', 'FD00:0::/8', '192.168.0.1', '::1'])).to.deep.equal([
        { address: '127.0.0.1', prefix: 32, family: 'ipv4' },
        { address: '10.0.0.0', prefix: 8, family: 'ipv4' },
        { address: '::1', prefix: 128, family: 'ipv6' },
        { address: 'fd00::', prefix: 8, family: 'ipv6' },
        { address: '192.168.0.1', prefix: 32, family: 'ipv4' },
        { address: '::1', prefix: 128, family: 'ipv6' },
      ]);
    });

    it('accepts an empty list', () => {
      expect(parseCidrList([])).to.deep.equal([]);
    });

    const garbage = ['', 'garbage', 'localhost/32', '127.0.0.1/33', '::1/129', '127.0.0.1/', '127.0.0.1/-1', '127.0.0.1/8/8', '127.0.0.1/0x8', '127.1/32', '999.0.0.1/8', 'fe80::1%eth0/64', '10.0.0.0/ 8'];
    for (const entry of garbage) {
      it(`rejects ${JSON.stringify(entry)}, naming the entry`, () => {
        expect(() => parseCidrList(['127.0.0.1/32', entry])).to.throw(Error, `"${entry}"`);
      });
    }
  });
});
