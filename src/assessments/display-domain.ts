/**
 * How an assessed domain is shown to a person (the contract's `displayDomain` and
 * `DomainWarning`): its Unicode form when every label reads as what it is, else its ASCII form
 * (`xn--…`) with a warning, so that `аррӏе.com` (Cyrillic) is never titled as if it were
 * `apple.com`. The rules follow what browsers do before they show a name in Unicode (UTS #39's
 * "highly restrictive" mixing, and Chromium's check for Cyrillic names that look Latin), stated
 * once here, per label:
 *   1. its letters are of one script, or of Latin with the Chinese, Japanese or Korean scripts
 *      written together with it (digits, hyphens and combining marks belong to any script);
 *   2. it is not a label in Cyrillic or Greek whose every letter looks like a Latin one, unless
 *      the top-level domain is in that script too (`пример.рф` reads as what it is).
 */
import type { components } from '../../generated/openapi.js';

export type DomainWarning = components['schemas']['DomainWarning'];

/** The scripts named in warnings; a letter of any other script counts as a script of its own. */
const SCRIPTS = [
  'Latin', 'Cyrillic', 'Greek', 'Armenian', 'Georgian', 'Hebrew', 'Arabic', 'Devanagari', 'Bengali', 'Thai', 'Lao', 'Ethiopic',
  'Han', 'Hiragana', 'Katakana', 'Hangul', 'Bopomofo', 'Cherokee', 'Tamil', 'Telugu', 'Kannada', 'Malayalam', 'Sinhala', 'Khmer', 'Myanmar', 'Tibetan',
] as const;
const SCRIPT_OF = SCRIPTS.map((name) => [name, new RegExp(`^\\p{Script=${name}}$`, 'u')] as const);
/** Characters of every script: digits, the hyphen, combining marks. */
const ANY_SCRIPT = /^[\p{Script=Common}\p{Script=Inherited}]$/u;

/** Sets of scripts that may share a label (UTS #39 "highly restrictive"). */
const WRITTEN_TOGETHER: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['Latin', 'Han', 'Hiragana', 'Katakana']),
  new Set(['Latin', 'Han', 'Bopomofo']),
  new Set(['Latin', 'Han', 'Hangul']),
];

/** Letters of these scripts that look like Latin ones (after Chromium's list for Cyrillic). */
const LATIN_ALIKE: Readonly<Record<string, ReadonlySet<string>>> = {
  Cyrillic: new Set('асԁеһіјӏорԛѕԝхуъьҽпгѵѡ'),
  Greek: new Set('αεικνορυχ'),
};

function scriptOf(char: string): string | null {
  if (ANY_SCRIPT.test(char)) return null;
  return SCRIPT_OF.find(([, pattern]) => pattern.test(char))?.[0] ?? `U+${(char.codePointAt(0) ?? 0).toString(16).toUpperCase()}`;
}

function scriptsOf(label: string): string[] {
  return [...new Set([...label].map(scriptOf).filter((script): script is string => script !== null))];
}

/** Why `label` (Unicode) may pass for another, or null; `tldScripts` are the top-level domain's. */
function labelWarning(label: string, tldScripts: readonly string[], ascii: string): DomainWarning | null {
  const scripts = scriptsOf(label);
  if (scripts.length > 1 && !WRITTEN_TOGETHER.some((set) => scripts.every((script) => set.has(script)))) {
    return {
      reason: 'mixed_scripts',
      message: `The label "${label}" mixes ${scripts.join(' and ')} letters, so this domain may imitate another one. It is shown as ${ascii}; check that it is the business's own domain.`,
    };
  }
  const [script] = scripts;
  const alike = script === undefined ? undefined : LATIN_ALIKE[script];
  if (script !== undefined && alike !== undefined && !tldScripts.includes(script) && [...label].every((char) => scriptOf(char) === null || alike.has(char))) {
    return {
      reason: 'latin_lookalike',
      message: `Every letter of the label "${label}" is a ${script} letter that looks like a Latin one, so this domain may pass for another. It is shown as ${ascii}; check that it is the business's own domain.`,
    };
  }
  return null;
}

/** The domain as it is safe to show, and why it is shown in ASCII (null when its Unicode form is shown). */
export function displayOf(ascii: string, unicode: string): { displayDomain: string; domainWarning: DomainWarning | null } {
  if (unicode === ascii) return { displayDomain: unicode, domainWarning: null };
  const labels = unicode.split('.');
  const tldScripts = scriptsOf(labels.at(-1) ?? '');
  for (const label of labels) {
    const warning = labelWarning(label, tldScripts, ascii);
    if (warning !== null) return { displayDomain: ascii, domainWarning: warning };
  }
  return { displayDomain: unicode, domainWarning: null };
}
