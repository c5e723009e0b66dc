/** How an assessed domain is shown: in Unicode when every label reads as what it is, else in ASCII with a warning. */
import { domainToASCII } from 'node:url';
import { expect } from 'chai';
import { displayOf } from '../../src/assessments/display-domain.js';

describe('how an assessed domain is shown', () => {
  const cases: Array<{ unicode: string; reason: 'mixed_scripts' | 'latin_lookalike' | null; why: string }> = [
    { unicode: 'example-bakery.co.uk', reason: null, why: 'ASCII' },
    { unicode: 'bücher.de', reason: null, why: 'Latin with a diacritic' },
    { unicode: 'пример.рф', reason: null, why: 'Cyrillic, not all of it Latin-like' },
    { unicode: 'сор.рф', reason: null, why: 'Latin-like Cyrillic under a Cyrillic top-level domain' },
    { unicode: '日本語テスト.jp', reason: null, why: 'Han and Katakana, written together' },
    { unicode: 'abc中文.com', reason: null, why: 'Latin and Han, written together' },
    { unicode: '한국.kr', reason: null, why: 'Hangul' },
    { unicode: 'аррӏе.com', reason: 'latin_lookalike', why: 'Cyrillic letters that all look Latin (apple)' },
    { unicode: 'ορο.com', reason: 'latin_lookalike', why: 'Greek letters that all look Latin' },
    { unicode: 'pаypal.com', reason: 'mixed_scripts', why: 'Latin with one Cyrillic а' },
    { unicode: 'аα.com', reason: 'mixed_scripts', why: 'Cyrillic with Greek' },
    { unicode: 'shop.аррӏе.com', reason: 'latin_lookalike', why: 'a look-alike label below the registered one' },
  ];
  for (const { unicode, reason, why } of cases) {
    const ascii = domainToASCII(unicode);
    it(`shows ${unicode} (${why}) ${reason === null ? 'in Unicode' : `as ${ascii}, warning ${reason}`}`, () => {
      const shown = displayOf(ascii, unicode);
      if (reason === null) {
        expect(shown).to.deep.equal({ displayDomain: unicode, domainWarning: null });
        return;
      }
      expect(shown.displayDomain).to.equal(ascii).and.match(/^[\x21-\x7e]+$/);
      expect(shown.domainWarning?.reason).to.equal(reason);
      expect(shown.domainWarning?.message).to.include(ascii).and.include('check that it is the business');
    });
  }

  it('names the scripts a label mixes, and the script that looks Latin', () => {
    expect(displayOf(domainToASCII('pаypal.com'), 'pаypal.com').domainWarning?.message).to.match(/^The label "pаypal" mixes Latin and Cyrillic letters/);
    expect(displayOf('xn--80ak6aa92e.com', 'аррӏе.com').domainWarning?.message).to.match(/^Every letter of the label "аррӏе" is a Cyrillic letter that looks like a Latin one/);
  });
});
