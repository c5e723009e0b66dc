/** Who a request counts against in every limit (src/http/client-address.ts): IPv4 by address, IPv6 by network prefix. */
import { expect } from 'chai';
import { clientKey } from '../../src/http/client-address.js';

describe('client keys of the limits', () => {
  const cases: Array<[string, number, string]> = [
    ['198.51.100.7', 64, '198.51.100.7'],
    ['198.51.100.8', 64, '198.51.100.8'],
    ['2001:db8:1:2::1', 64, '2001:db8:1:2::/64'],
    ['2001:db8:1:2:ffff:ffff:ffff:ffff', 64, '2001:db8:1:2::/64'],
    ['2001:DB8:1:2:0:0:0:abcd', 64, '2001:db8:1:2::/64'],
    ['2001:db8:1:3::1', 64, '2001:db8:1:3::/64'],
    ['fe80::1%eth0', 64, 'fe80::/64'],
    ['2001:db8:1:2ff::1', 56, '2001:db8:1:200::/56'],
    ['2001:db8:1:2::1', 128, '2001:db8:1:2::1/128'],
    ['2001:db8:abcd:1234::1', 48, '2001:db8:abcd::/48'],
    ['::1', 64, '::/64'],
    ['::ffff:198.51.100.7', 64, '198.51.100.7'],
    ['unknown', 64, 'unknown'],
  ];
  for (const [address, prefix, key] of cases) {
    it(`counts ${address} as ${key} (prefix /${prefix})`, () => {
      expect(clientKey(address, prefix)).to.equal(key);
    });
  }
});
