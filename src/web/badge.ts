/**
 * A status badge in the look of shields.io's "flat" style, as SVG for README files (GitHub shows it
 * through its image proxy). Its texts come from catalog data, so they are hostile: every text and
 * attribute goes through one escaping element builder, characters XML 1.0 forbids or that hide or
 * reorder text are removed, and each text is capped. Colours come only from the palette below.
 * The same input always gives the same bytes.
 */

export type BadgeColor = 'green' | 'red' | 'yellow' | 'grey' | 'blue';

/** Message backgrounds; each has a contrast of at least 4.5:1 with the white text (WCAG AA). */
const PALETTE: Readonly<Record<BadgeColor, string>> = {
  green: '#2e7d32',
  red: '#c62828',
  yellow: '#946200',
  grey: '#707070',
  blue: '#0969da',
};
const LABEL_FILL = '#555';
const HEIGHT = 20;
const RADIUS = 3;
/** Space on each side of a text, in pixels. */
const PADDING = 6;
/** The most characters (code points) a text keeps; a longer one ends in "…". */
const MAX_CHARS = 40;
const FONT_FAMILY = 'Verdana,DejaVu Sans,sans-serif';
const GRADIENT_ID = 'badge-shine';

// ---------------------------------------------------------------------------------------------
// Text: what may be shown, and how wide it is.

/** Removed outright: invisible, bidi-reordering and tag characters, and noncharacters. */
const HIDDEN = /[\u00AD\u061C\u180E\u200B-\u200F\u202A-\u202E\u2060-\u2064\u2066-\u2069\uFEFF\uFDD0-\uFDEF\u{E0000}-\u{E007F}]/u;
/** Not allowed in XML 1.0 (C0 controls but tab, newline and CR; U+FFFE/FFFF), plus DEL and C1 controls. */
const NOT_XML = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\uFFFE\uFFFF]/u;
/** A lone surrogate: in a `u` regex, a surrogate that is half of a pair does not match. */
const LONE_SURROGATE = /[\uD800-\uDFFF]/u;
const SPACE = /\s/u;

/**
 * The text as the badge shows it: forbidden and hidden characters removed, runs of white space
 * made one space, trimmed, and at most MAX_CHARS code points (never half a surrogate pair).
 */
function cleanText(raw: string): string {
  const kept: string[] = [];
  let pendingSpace = false;
  for (const char of raw) {
    if (HIDDEN.test(char) || NOT_XML.test(char) || LONE_SURROGATE.test(char)) continue;
    if (SPACE.test(char)) {
      pendingSpace = kept.length > 0;
      continue;
    }
    if (pendingSpace) kept.push(' ');
    pendingSpace = false;
    kept.push(char);
    // One more than the cap is enough to know the text is too long.
    if (kept.length > MAX_CHARS) break;
  }
  if (kept.length <= MAX_CHARS) return kept.join('');
  return `${kept.slice(0, MAX_CHARS - 1).join('').trimEnd()}…`;
}

/**
 * Advance widths of Verdana at 11px for the printable ASCII characters U+0020 to U+007E, in
 * order, in pixels (approximate; from the font's metrics at 2048 units per em).
 */
const ASCII_WIDTHS: readonly number[] = [
  3.87, 4.42, 5.54, 9.87, 7.49, 13.19, 8.59, 3.03, 5.55, 5.55, 7.49, 9.87, 3.87, 5.55, 3.87, 5.55, // space to /
  7.49, 7.49, 7.49, 7.49, 7.49, 7.49, 7.49, 7.49, 7.49, 7.49, 5.55, 5.55, 9.87, 9.87, 9.87, 6.5, // 0 to ?
  10.8, 7.54, 7.55, 7.7, 8.5, 6.94, 6.32, 8.48, 8.28, 4.63, 5.55, 7.7, 6.18, 9.29, 8.24, 8.62, // @ to O
  6.65, 8.62, 7.65, 7.54, 6.75, 8.09, 7.54, 11.21, 7.54, 6.75, 7.54, 5.55, 5.55, 5.55, 9.87, 7.49, // P to _
  7.49, 6.74, 6.89, 5.93, 6.89, 6.55, 3.87, 6.89, 6.96, 3.02, 3.78, 6.55, 3.02, 10.71, 6.96, 6.62, // ` to o
  6.89, 6.89, 4.69, 5.71, 4.33, 6.96, 6.55, 8.86, 6.55, 6.55, 5.67, 7.48, 5.55, 7.48, 9.87, // p to ~
];
/** Width of a character outside the table that is neither wide nor zero-width. */
const DEFAULT_WIDTH = 7.5;
/** Width of a CJK ideograph, kana, Hangul, full-width form or emoji: one em. */
const WIDE_WIDTH = 11;
/** Combining marks, variation selectors and joiners take no room of their own. */
const ZERO_WIDTH = /[\p{Mn}\p{Me}\uFE00-\uFE0F\u{E0100}-\u{E01EF}]/u;
const WIDE =
  /[\u1100-\u115F\u2E80-\u303E\u3041-\u33FF\u3400-\u4DBF\u4E00-\u9FFF\uA000-\uA4CF\uAC00-\uD7A3\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6\u{1F000}-\u{1FAFF}\u{20000}-\u{3FFFD}]|\p{Extended_Pictographic}/u;

function charWidth(char: string): number {
  const code = char.codePointAt(0) ?? 0;
  const ascii = ASCII_WIDTHS[code - 0x20];
  if (ascii !== undefined && code >= 0x20) return ascii;
  if (ZERO_WIDTH.test(char)) return 0;
  return WIDE.test(char) ? WIDE_WIDTH : DEFAULT_WIDTH;
}

/** The text's width in Verdana 11px, rounded up to whole pixels. */
function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += charWidth(char);
  return Math.ceil(width);
}

// ---------------------------------------------------------------------------------------------
// Markup: built only through `element`, which escapes every text and attribute value.

/** Markup made by `element`; a plain string passed as a child is always text, never markup. */
interface Markup {
  readonly markup: string;
}

const XML_ESCAPES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&apos;' };

function escapeXml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => XML_ESCAPES[char] ?? '');
}

function attributeValue(value: string | number): string {
  if (typeof value === 'number' && !Number.isFinite(value)) throw new RangeError(`not a finite number: ${value}`);
  return escapeXml(String(value));
}

/** An element; names are constants of this module, values and text children are escaped. */
function element(name: string, attributes: Readonly<Record<string, string | number>>, ...children: (Markup | string)[]): Markup {
  const attrs = Object.entries(attributes)
    .map(([key, value]) => ` ${key}="${attributeValue(value)}"`)
    .join('');
  const inner = children.map((child) => (typeof child === 'string' ? escapeXml(child) : child.markup)).join('');
  return { markup: inner === '' ? `<${name}${attrs}/>` : `<${name}${attrs}>${inner}</${name}>` };
}

/** The white text of one section with its shadow one pixel below; nothing for an empty text. */
function sectionText(text: string, width: number, centre: number): Markup[] {
  if (text === '') return [];
  // textLength makes any fallback font fill the width measured here; 0 would squash the text.
  const fit: Record<string, string | number> = width > 0 ? { textLength: width, lengthAdjust: 'spacing' } : {};
  return [
    element('text', { x: centre, y: 15, fill: '#010101', 'fill-opacity': 0.3, ...fit }, text),
    element('text', { x: centre, y: 14, ...fit }, text),
  ];
}

/** The two backgrounds: the label's rounded on the left, the message's rounded on the right. */
function backgrounds(labelWidth: number, messageWidth: number, fill: string): Markup[] {
  const total = labelWidth + messageWidth;
  const arc = `a${RADIUS} ${RADIUS} 0 0 1`;
  const straight = HEIGHT - 2 * RADIUS;
  return [
    element('path', {
      fill: LABEL_FILL,
      d: `M${RADIUS} 0H${labelWidth}V${HEIGHT}H${RADIUS}${arc}-${RADIUS}-${RADIUS}V${RADIUS}${arc} ${RADIUS}-${RADIUS}z`,
    }),
    element('path', {
      fill,
      d: `M${labelWidth} 0H${total - RADIUS}${arc} ${RADIUS} ${RADIUS}v${straight}${arc}-${RADIUS} ${RADIUS}H${labelWidth}z`,
    }),
  ];
}

/**
 * A flat badge, `label | message`, 20 pixels high, as a standalone SVG document: accessible
 * (`role="img"`, an `aria-label` and a `<title>` reading "label: message"), with no script, no
 * external reference and no `foreignObject`. An unknown colour (from untyped callers) is grey.
 */
export function badgeSvg(badge: { label: string; message: string; color: BadgeColor }): string {
  const label = cleanText(badge.label);
  const message = cleanText(badge.message);
  const fill = Object.hasOwn(PALETTE, badge.color) ? PALETTE[badge.color] : PALETTE.grey;
  const labelText = textWidth(label);
  const messageText = textWidth(message);
  const labelWidth = labelText + 2 * PADDING;
  const messageWidth = messageText + 2 * PADDING;
  const width = labelWidth + messageWidth;
  const name = [label, message].filter((text) => text !== '').join(': ');
  const svg = element(
    'svg',
    { xmlns: 'http://www.w3.org/2000/svg', width, height: HEIGHT, viewBox: `0 0 ${width} ${HEIGHT}`, role: 'img', 'aria-label': name },
    element('title', {}, name),
    element(
      'defs',
      {},
      element(
        'linearGradient',
        { id: GRADIENT_ID, x1: 0, y1: 0, x2: 0, y2: 1 },
        element('stop', { offset: 0, 'stop-color': '#fff', 'stop-opacity': 0.12 }),
        element('stop', { offset: 1, 'stop-color': '#000', 'stop-opacity': 0.12 }),
      ),
    ),
    ...backgrounds(labelWidth, messageWidth, fill),
    element('rect', { width, height: HEIGHT, rx: RADIUS, fill: `url(#${GRADIENT_ID})` }),
    element(
      'g',
      { fill: '#fff', 'text-anchor': 'middle', 'font-family': FONT_FAMILY, 'font-size': 11 },
      ...sectionText(label, labelText, labelWidth / 2),
      ...sectionText(message, messageText, labelWidth + messageWidth / 2),
    ),
  );
  return svg.markup;
}
