import { expect } from 'chai';
import { checkBusinessDomain, type DomainRejection } from '../../src/assessments/domain.js';

type Case =
  | { readonly title: string; readonly input: string; readonly domain: string; readonly unicode: string }
  | { readonly title: string; readonly input: string; readonly reason: DomainRejection };

const label63 = 'a'.repeat(63);
const label64 = 'a'.repeat(64);
/** 63 + 1 + 63 + 1 + 63 + 1 + 57 + 4 = 253 characters. */
const name253 = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(57)}.com`;
const name254 = `${'a'.repeat(63)}.${'b'.repeat(63)}.${'c'.repeat(63)}.${'d'.repeat(58)}.com`;

const accepted: readonly Case[] = [
  { title: 'accepts a UK business domain as given', input: 'example-bakery.co.uk', domain: 'example-bakery.co.uk', unicode: 'example-bakery.co.uk' },
  { title: 'keeps the subdomain of a registrable domain', input: 'www.example-bakery.co.uk', domain: 'www.example-bakery.co.uk', unicode: 'www.example-bakery.co.uk' },
  { title: 'lower-cases an upper-case domain', input: 'WWW.Example-Shop.DE', domain: 'www.example-shop.de', unicode: 'www.example-shop.de' },
  { title: 'converts an IDN to punycode and keeps the Unicode form', input: 'bücher.de', domain: 'xn--bcher-kva.de', unicode: 'bücher.de' },
  { title: 'gives the Unicode form back for punycode input', input: 'xn--bcher-kva.de', domain: 'xn--bcher-kva.de', unicode: 'bücher.de' },
  { title: 'lower-cases upper-case punycode', input: 'XN--BCHER-KVA.DE', domain: 'xn--bcher-kva.de', unicode: 'bücher.de' },
  { title: 'converts an IDN with several non-ASCII letters and a hyphen', input: 'münchen-bäckerei.de', domain: 'xn--mnchen-bckerei-dib09a.de', unicode: 'münchen-bäckerei.de' },
  { title: 'accepts an IDN under an IDN top-level domain', input: 'пример.рф', domain: 'xn--e1afmkfd.xn--p1ai', unicode: 'пример.рф' },
  { title: 'accepts an ideographic full stop as the dot', input: 'bücher。de', domain: 'xn--bcher-kva.de', unicode: 'bücher.de' },
  { title: 'drops one trailing dot', input: 'shop.example-firm.com.', domain: 'shop.example-firm.com', unicode: 'shop.example-firm.com' },
  { title: 'trims surrounding spaces', input: ' firm.com ', domain: 'firm.com', unicode: 'firm.com' },
  { title: 'trims a trailing line break', input: 'firm.com\n', domain: 'firm.com', unicode: 'firm.com' },
  { title: 'accepts a 63-character label', input: `${label63}.com`, domain: `${label63}.com`, unicode: `${label63}.com` },
  { title: 'accepts a 253-character name', input: name253, domain: name253, unicode: name253 },
  { title: 'accepts a name under a private suffix, judged by its ICANN suffix', input: 'firm.github.io', domain: 'firm.github.io', unicode: 'firm.github.io' },
  { title: 'accepts a label of digits that is not the last one', input: '123.firm.com', domain: '123.firm.com', unicode: '123.firm.com' },
];

const rejected: readonly Case[] = [
  { title: 'rejects an empty string with reason empty', input: '', reason: 'empty' },
  { title: 'rejects only spaces with reason empty', input: '   ', reason: 'empty' },
  { title: 'rejects a space inside the name with reason whitespace', input: 'firm .com', reason: 'whitespace' },
  { title: 'rejects a line break inside the name with reason whitespace', input: 'firm\n.com', reason: 'whitespace' },
  { title: 'rejects a tab inside the name with reason whitespace', input: 'firm\t.com', reason: 'whitespace' },
  { title: 'rejects a zero-width space with reason whitespace', input: 'fi\u200Brm.com', reason: 'whitespace' },
  { title: 'rejects a trailing zero-width space, which trimming keeps, with reason whitespace', input: 'firm.com\u200B', reason: 'whitespace' },
  { title: 'rejects a no-break space inside the name with reason whitespace', input: 'firm\u00A0.com', reason: 'whitespace' },
  { title: 'rejects a soft hyphen, which IDNA would silently drop, with reason whitespace', input: 'fi\u00ADrm.com', reason: 'whitespace' },
  { title: 'rejects an https URL with reason url', input: 'https://firm.com', reason: 'url' },
  { title: 'rejects a scheme-relative URL with reason url', input: '//firm.com', reason: 'url' },
  { title: 'rejects a URL with a path with reason url', input: 'http://firm.com/about', reason: 'url' },
  { title: 'rejects a path with reason path', input: 'firm.com/about', reason: 'path' },
  { title: 'rejects a bare trailing slash with reason path', input: 'firm.com/', reason: 'path' },
  { title: 'rejects a query with reason path', input: 'firm.com?x=1', reason: 'path' },
  { title: 'rejects a fragment with reason path', input: 'firm.com#top', reason: 'path' },
  { title: 'rejects an e-mail address with reason email', input: 'info@firm.com', reason: 'email' },
  { title: 'rejects a mailto link with reason email', input: 'mailto:info@firm.com', reason: 'email' },
  { title: 'rejects a port with reason port', input: 'firm.com:443', reason: 'port' },
  { title: 'rejects an empty port with reason port', input: 'firm.com:', reason: 'port' },
  { title: 'rejects dotted IPv4 with reason ip_address', input: '127.0.0.1', reason: 'ip_address' },
  { title: 'rejects decimal IPv4 with reason ip_address', input: '2130706433', reason: 'ip_address' },
  { title: 'rejects hexadecimal IPv4 with reason ip_address', input: '0x7f000001', reason: 'ip_address' },
  { title: 'rejects octal IPv4 with reason ip_address', input: '0177.0.0.1', reason: 'ip_address' },
  { title: 'rejects short IPv4 with reason ip_address', input: '127.1', reason: 'ip_address' },
  { title: 'rejects full-width IPv4 digits with reason ip_address', input: '１２７.０.０.１', reason: 'ip_address' },
  { title: 'rejects IPv4 with a port as an IP address', input: '127.0.0.1:8080', reason: 'ip_address' },
  { title: 'rejects a name ending in a number with reason ip_address', input: 'firm.123', reason: 'ip_address' },
  { title: 'rejects bracketed IPv6 with reason ip_address', input: '[::1]', reason: 'ip_address' },
  { title: 'rejects bracketed IPv6 with a port as an IP address', input: '[::1]:443', reason: 'ip_address' },
  { title: 'rejects bare IPv6 with reason ip_address', input: '::1', reason: 'ip_address' },
  { title: 'rejects IPv4-mapped IPv6 with reason ip_address', input: '::ffff:127.0.0.1', reason: 'ip_address' },
  { title: 'rejects two trailing dots with reason invalid_label', input: 'firm.com..', reason: 'invalid_label' },
  { title: 'rejects an empty label with reason invalid_label', input: 'firm..com', reason: 'invalid_label' },
  { title: 'rejects a leading dot with reason invalid_label', input: '.firm.com', reason: 'invalid_label' },
  { title: 'rejects a leading hyphen with reason invalid_label', input: '-firm.com', reason: 'invalid_label' },
  { title: 'rejects a trailing hyphen with reason invalid_label', input: 'firm-.com', reason: 'invalid_label' },
  { title: 'rejects punycode that does not decode with reason invalid_label', input: 'xn--zz.com', reason: 'invalid_label' },
  { title: 'rejects punycode that decodes to plain ASCII with reason invalid_label', input: 'xn--ab-.com', reason: 'invalid_label' },
  { title: 'rejects an underscore with reason invalid_characters', input: 'fi_rm.com', reason: 'invalid_characters' },
  { title: 'rejects an exclamation mark with reason invalid_characters', input: 'firm!.com', reason: 'invalid_characters' },
  { title: 'rejects an asterisk with reason invalid_characters', input: '*.firm.com', reason: 'invalid_characters' },
  { title: 'rejects percent-encoding rather than decoding it, with reason invalid_characters', input: '%66irm.com', reason: 'invalid_characters' },
  { title: 'rejects a symbol that IDNA disallows with reason invalid_characters', input: 'firm\u2024co.com', reason: 'invalid_characters' },
  { title: 'rejects a 64-character label with reason label_too_long', input: `${label64}.com`, reason: 'label_too_long' },
  { title: 'rejects a 60-letter IDN label that is 67 octets once encoded with reason label_too_long', input: `${'bücher'.repeat(10)}.de`, reason: 'label_too_long' },
  { title: 'rejects a 254-character name with reason too_long', input: name254, reason: 'too_long' },
  { title: 'rejects localhost with reason reserved_name', input: 'localhost', reason: 'reserved_name' },
  { title: 'rejects a name under localhost with reason reserved_name', input: 'shop.localhost', reason: 'reserved_name' },
  { title: 'rejects .test with reason reserved_name', input: 'firm.test', reason: 'reserved_name' },
  { title: 'rejects .example with reason reserved_name', input: 'firm.example', reason: 'reserved_name' },
  { title: 'rejects example.com with reason reserved_name', input: 'example.com', reason: 'reserved_name' },
  { title: 'rejects a subdomain of example.org with reason reserved_name', input: 'www.example.org', reason: 'reserved_name' },
  { title: 'rejects .invalid with reason reserved_name', input: 'firm.invalid', reason: 'reserved_name' },
  { title: 'rejects .local with reason reserved_name', input: 'printer.local', reason: 'reserved_name' },
  { title: 'rejects .internal with reason reserved_name', input: 'corp.internal', reason: 'reserved_name' },
  { title: 'rejects .onion with reason reserved_name', input: 'hidden.onion', reason: 'reserved_name' },
  { title: 'rejects .arpa with reason reserved_name', input: '1.0.0.127.in-addr.arpa', reason: 'reserved_name' },
  { title: 'rejects .alt with reason reserved_name', input: 'firm.alt', reason: 'reserved_name' },
  { title: 'rejects a bare second-level public suffix with reason public_suffix', input: 'co.uk', reason: 'public_suffix' },
  { title: 'rejects a bare top-level domain with reason public_suffix', input: 'com', reason: 'public_suffix' },
  { title: 'rejects a bare country-code domain with reason public_suffix', input: 'uk', reason: 'public_suffix' },
  { title: 'rejects a name that a wildcard rule makes a public suffix with reason public_suffix', input: 'anything.ck', reason: 'public_suffix' },
  { title: 'rejects an unknown top-level domain with reason unknown_tld', input: 'firm.notarealtld', reason: 'unknown_tld' },
  { title: 'rejects another unknown top-level domain with reason unknown_tld', input: 'bakery.invalidtld', reason: 'unknown_tld' },
  { title: 'rejects a single label that is no top-level domain with reason unknown_tld', input: 'firm', reason: 'unknown_tld' },
];

describe('business domain rules (createAssessment)', () => {
  for (const c of [...accepted, ...rejected]) {
    it(c.title, () => {
      const result = checkBusinessDomain(c.input);
      if ('reason' in c) {
        expect(result).to.include({ ok: false, reason: c.reason });
        if (!result.ok) expect(result.message).to.be.a('string').and.match(/^\S.*[.]$/s);
      } else {
        expect(result).to.deep.equal({ ok: true, domain: c.domain, unicode: c.unicode });
      }
    });
  }

  it('covers every rejection reason of the contract', () => {
    const all: readonly DomainRejection[] = ['empty', 'whitespace', 'url', 'email', 'port', 'path', 'ip_address', 'too_long', 'label_too_long', 'invalid_label', 'invalid_characters', 'reserved_name', 'unknown_tld', 'public_suffix'];
    const covered = new Set(rejected.map((c) => ('reason' in c ? c.reason : undefined)));
    expect(all.filter((reason) => !covered.has(reason))).to.deep.equal([]);
  });

  it('suggests the bare domain when a URL, e-mail, path or port was sent', () => {
    for (const input of ['https://WWW.Firm.com/about', 'info@firm.com', 'firm.com/about', 'firm.com:443']) {
      const result = checkBusinessDomain(input);
      expect(result.ok).to.equal(false);
      if (!result.ok) expect(result.message).to.match(/such as "(www\.)?firm\.com"/);
    }
  });

  it('does not suggest a name that would itself be rejected', () => {
    const result = checkBusinessDomain('https://firm.test/');
    expect(result).to.include({ ok: false, reason: 'url' });
    if (!result.ok) expect(result.message).not.to.contain('such as');
  });

  it('never echoes more than about 100 characters of the input', () => {
    for (const input of [`${'a'.repeat(900)}@firm.com`, 'a '.repeat(5000), `https://${'x'.repeat(5000)}.com`, `${'a'.repeat(500)}_.com`, `${'b'.repeat(400)}.com`]) {
      const result = checkBusinessDomain(input);
      expect(result.ok).to.equal(false);
      if (!result.ok) expect(result.message.length).to.be.below(300);
    }
  });

  it('shows invisible characters escaped in the message', () => {
    const result = checkBusinessDomain('firm\n.com');
    expect(result.ok).to.equal(false);
    if (!result.ok) expect(result.message).to.contain('"firm\\u{a}.com"').and.not.contain('\n');
  });

  it('gives the same answer every time for the same input', () => {
    const first = rejected.map((c) => checkBusinessDomain(c.input));
    const second = rejected.map((c) => checkBusinessDomain(c.input));
    expect(second).to.deep.equal(first);
  });
});
