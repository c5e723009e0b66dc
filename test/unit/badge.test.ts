/**
 * The flat SVG badge (src/web/badge.ts) on ordinary and hostile texts. No XML parser is installed
 * (none of fast-xml-parser, @xmldom/xmldom, jsdom, parse5), so well-formedness is checked as
 * structural facts: only XML 1.0 characters; every `<` opens or closes a known element with
 * known, double-quoted, unique attributes; every `&` starts one of the five entities; each element
 * closes as often as it opens.
 */
import { expect } from 'chai';
import { type BadgeColor, badgeSvg } from '../../src/web/badge.js';

const ELEMENTS = new Set(['svg', 'title', 'defs', 'linearGradient', 'stop', 'path', 'rect', 'g', 'text']);
const ATTRIBUTES = new Set([
  'xmlns', 'width', 'height', 'viewBox', 'role', 'aria-label', 'id', 'x1', 'y1', 'x2', 'y2', 'offset',
  'stop-color', 'stop-opacity', 'fill', 'd', 'rx', 'text-anchor', 'font-family', 'font-size', 'x', 'y',
  'fill-opacity', 'textLength', 'lengthAdjust',
]);
/** One start, end or empty-element tag: a name, then ` name="value"` pairs with no `<` or `"` in values. */
const TAG = /<(\/?)([A-Za-z][\w-]*)((?: [\w:-]+="[^"<]*")*)(\/?)>/g;
const ATTRIBUTE = / ([\w:-]+)="([^"<]*)"/g;
const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;
const REMOVED = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u200B-\u200F\u202A-\u202E\u2066-\u2069\uFEFF\uFFFE\uFFFF\u{E0000}-\u{E007F}]/u;

interface Tag {
  readonly closing: boolean;
  readonly name: string;
  readonly attributes: ReadonlyArray<readonly [string, string]>;
  readonly empty: boolean;
}

const tagsOf = (svg: string): Tag[] =>
  [...svg.matchAll(TAG)].map((m) => ({
    closing: m[1] === '/',
    name: m[2] ?? '',
    attributes: [...(m[3] ?? '').matchAll(ATTRIBUTE)].map((a) => [a[1] ?? '', a[2] ?? ''] as const),
    empty: m[4] === '/',
  }));

const decode = (text: string): string =>
  text.replace(/&(amp|lt|gt|quot|apos);/g, (_, name: string) => ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" })[name] ?? '');

/** The decoded values of `attribute` on every `element` tag, in order. */
const attributeValues = (svg: string, element: string, attribute: string): string[] =>
  tagsOf(svg)
    .filter((tag) => tag.name === element && !tag.closing)
    .flatMap((tag) => tag.attributes.filter(([name]) => name === attribute).map(([, value]) => decode(value)));

/** The decoded text of every `<title>` and `<text>` element. */
const textsOf = (svg: string, element: 'title' | 'text'): string[] =>
  [...svg.matchAll(new RegExp(`<${element}(?: [^>]*)?(?:/>|>([^<]*)</${element}>)`, 'g'))].map((m) => decode(m[1] ?? ''));

const rootWidth = (svg: string): number => Number(attributeValues(svg, 'svg', 'width')[0]);

function expectWellFormed(svg: string): void {
  expect(svg, 'only XML 1.0 characters').to.match(XML_CHARS);
  expect(svg.startsWith('<svg xmlns="http://www.w3.org/2000/svg" '), 'a standalone SVG root').to.equal(true);
  expect(svg.endsWith('</svg>')).to.equal(true);
  expect(svg.replace(TAG, ''), 'every < and > belongs to a tag').not.to.match(/[<>]/);
  expect(svg, 'every & starts an entity').not.to.match(/&(?!(?:amp|lt|gt|quot|apos);)/);
  const tags = tagsOf(svg);
  expect(tags.filter((tag) => tag.name === 'svg' && !tag.closing)).to.have.length(1);
  const balance = new Map<string, number>();
  for (const tag of tags) {
    expect(ELEMENTS, `element <${tag.name}>`).to.include(tag.name);
    const names = tag.attributes.map(([name]) => name);
    for (const name of names) expect(ATTRIBUTES, `attribute ${name} on <${tag.name}>`).to.include(name);
    expect(new Set(names).size, `unique attributes on <${tag.name}>`).to.equal(names.length);
    if (tag.closing) expect(tag.attributes).to.have.length(0);
    if (!tag.empty) balance.set(tag.name, (balance.get(tag.name) ?? 0) + (tag.closing ? -1 : 1));
  }
  for (const [name, open] of balance) expect(open, `<${name}> closes as often as it opens`).to.equal(0);
}

function expectShows(svg: string, label: string, message: string): void {
  const name = [label, message].filter((text) => text !== '').join(': ');
  expect(textsOf(svg, 'title')).to.deep.equal([name]);
  expect(attributeValues(svg, 'svg', 'aria-label')).to.deep.equal([name]);
  expect(attributeValues(svg, 'svg', 'role')).to.deep.equal(['img']);
  expect(textsOf(svg, 'text')).to.deep.equal([label, label, message, message].filter((text) => text !== ''));
}

describe('flat SVG badge', () => {
  it('draws "build: passing" as a valid, accessible standalone SVG', () => {
    const svg = badgeSvg({ label: 'build', message: 'passing', color: 'green' });
    expectWellFormed(svg);
    expectShows(svg, 'build', 'passing');
    expect(attributeValues(svg, 'svg', 'height')).to.deep.equal(['20']);
    expect(attributeValues(svg, 'svg', 'viewBox')).to.deep.equal([`0 0 ${rootWidth(svg)} 20`]);
    expect(attributeValues(svg, 'g', 'font-family')).to.deep.equal(['Verdana,DejaVu Sans,sans-serif']);
    expect(attributeValues(svg, 'g', 'font-size')).to.deep.equal(['11']);
  });

  const hostile: ReadonlyArray<readonly [string, string, string]> = [
    ['a script element', '<script>alert(1)</script>', '<script>alert(1)</script>'],
    ['an attribute break-out', '"onload="x', '"onload="x'],
    ['a single-quoted break-out', "' onmouseover='x", "' onmouseover='x"],
    ['an entity', '&amp;', '&amp;'],
    ['a CDATA end', ']]>', ']]>'],
    ['a CDATA section', '<![CDATA[x]]>', '<![CDATA[x]]>'],
    ['a processing instruction', '<?xml-stylesheet href="x"?>', '<?xml-stylesheet href="x"?>'],
    ['an external URL', 'https://evil.example/x.png', 'https://evil.example/x.png'],
    ['tag characters', 'ok\u{E0001}\u{E0041}\u{E0042}\u{E007F}', 'ok'],
    ['bidi overrides and isolates', '\u202Etxt.exe\u202C \u2066a\u2069\u202A\u202B\u202D', 'txt.exe a'],
    ['zero-width and byte-order marks', '\u200Bx\u200C\u200D\u200E\u200Fy\uFEFF', 'xy'],
    ['C0 and C1 controls', 'a\u0000b\u0007c\u001Bd\u007Fe\u0085f', 'abcdef'],
    ['tabs, newlines and odd spaces', '\t many \n\r  spaces\u00A0\u3000here  ', 'many spaces here'],
    ['noncharacters U+FFFE and U+FFFF', 'a\uFFFEb\uFFFF', 'ab'],
    ['lone surrogates', 'a\uD800b\uDC00c\uDBFF', 'abc'],
    ['10 KB of markup', '<'.repeat(10_240), `${'<'.repeat(39)}…`],
    ['10 KB of letters', 'A'.repeat(10_240), `${'A'.repeat(39)}…`],
    ['10 KB of invisible characters before the text', `${'\u200B\u202E'.repeat(5_120)}hi`, 'hi'],
    ['an emoji at the cut', `${'a'.repeat(38)}😀😀😀`, `${'a'.repeat(38)}😀…`],
    ['text that is only invisible', '\u200B\u2066\u{E0041}', ''],
  ];
  for (const [what, text, shown] of hostile) {
    it(`shows ${what} only as escaped text`, () => {
      const svg = badgeSvg({ label: text, message: text, color: 'red' });
      expectWellFormed(svg);
      expectShows(svg, shown, shown);
      expect(svg).not.to.match(REMOVED);
      expect(svg).not.to.match(/[\uD800-\uDFFF]/u);
      expect(svg).not.to.match(/<script|<!|<\?|\]\]>|\shref="|xlink|<foreignObject|<use|<image|<style/i);
      expect(svg.match(/url\(/g) ?? []).to.have.length(1);
      expect(svg).to.contain('fill="url(#badge-shine)"');
      expect(svg.length).to.be.below(3_000);
    });
  }

  it('escapes all five XML specials in text and attributes', () => {
    const svg = badgeSvg({ label: `&<>"'`, message: 'x', color: 'blue' });
    expect(svg).to.contain('<title>&amp;&lt;&gt;&quot;&apos;: x</title>');
    expect(svg).to.contain('aria-label="&amp;&lt;&gt;&quot;&apos;: x"');
    expect(svg).to.contain('>&amp;&lt;&gt;&quot;&apos;</text>');
  });

  const widths: ReadonlyArray<readonly [string, string, string]> = [
    ['one letter', 'a', 'ab'],
    ['two letters', 'ab', 'abc'],
    ['a narrow letter', 'i', 'W'],
    ['ASCII', 'ab', '漢字'],
    ['ASCII', 'xy', '😀😀'],
    ['a word', 'pass', 'passing'],
    ['short text', 'x', 'x'.repeat(40)],
  ];
  for (const [what, narrow, wide] of widths) {
    it(`draws "${wide}" wider than "${narrow}" (${what})`, () => {
      expect(rootWidth(badgeSvg({ label: 'l', message: wide, color: 'grey' }))).to.be.above(
        rootWidth(badgeSvg({ label: 'l', message: narrow, color: 'grey' })),
      );
      expect(rootWidth(badgeSvg({ label: wide, message: 'm', color: 'grey' }))).to.be.above(
        rootWidth(badgeSvg({ label: narrow, message: 'm', color: 'grey' })),
      );
    });
  }

  it('grows with every added character, up to the cap, then stops', () => {
    const sizes = Array.from({ length: 45 }, (_, n) => rootWidth(badgeSvg({ label: 'x'.repeat(n + 1), message: 'm', color: 'blue' })));
    for (let n = 1; n < 40; n += 1) expect(sizes[n], `${n + 1} characters`).to.be.above(sizes[n - 1] ?? Infinity);
    expect(new Set(sizes.slice(40)).size, 'every text past the cap is cut the same').to.equal(1);
  });

  for (const text of ['', 'a', 'build', 'ÿ', 'é', '漢', '😀', 'x'.repeat(100)]) {
    it(`measures ${JSON.stringify(text.slice(0, 10))} in positive whole pixels`, () => {
      const svg = badgeSvg({ label: text, message: text, color: 'yellow' });
      const lengths = [...attributeValues(svg, 'svg', 'width'), ...attributeValues(svg, 'rect', 'width'), ...attributeValues(svg, 'text', 'textLength')];
      for (const length of lengths) expect(length).to.match(/^[1-9]\d*$/);
      expect(attributeValues(svg, 'rect', 'width')).to.deep.equal([String(rootWidth(svg))]);
    });
  }

  const palette: ReadonlyArray<readonly [BadgeColor, string]> = [
    ['green', '#2e7d32'],
    ['red', '#c62828'],
    ['yellow', '#946200'],
    ['grey', '#707070'],
    ['blue', '#0969da'],
  ];
  for (const [color, fill] of palette) {
    it(`fills the message ${color} with ${fill} and the label with #555`, () => {
      expect(attributeValues(badgeSvg({ label: 'l', message: 'm', color }), 'path', 'fill')).to.deep.equal(['#555', fill]);
    });
  }

  for (const color of ['purple', '#ff0000', '__proto__', 'constructor', 'red"/><script>x</script>']) {
    it(`fills an unknown colour ${JSON.stringify(color)} grey, never with the input`, () => {
      const svg = badgeSvg({ label: 'l', message: 'm', color: color as BadgeColor });
      expectWellFormed(svg);
      expect(attributeValues(svg, 'path', 'fill')).to.deep.equal(['#555', '#707070']);
    });
  }

  it('gives the same bytes for the same input', () => {
    const inputs = [
      { label: 'build', message: 'passing', color: 'green' },
      { label: '<x>\u202E', message: '漢字😀'.repeat(20), color: 'red' },
    ] as const;
    for (const input of inputs) {
      const first = badgeSvg({ ...input });
      expect(badgeSvg({ ...input })).to.equal(first);
      expect(Buffer.from(badgeSvg(input)).equals(Buffer.from(first))).to.equal(true);
    }
  });
});
