/** Words that would read as a score, a grade or advice about a business (assessments say none). */
import { inWords } from '../../src/assessments/observation-words.js';
import type { Observation } from '../../src/assessments/probes/types.js';

export const GRADE_WORDS = /\b(good|bad|poor|weak|strong|risky?|safe|unsafe|score[sd]?|grade[sd]?|rating|rated|recommend\w*|healthy|excellent|worse|better|pass(ed)?|fail(ed)?)\b/i;

/** Each label, sentence or value of these runs (by domain) that holds a grade word, as `domain name: text`. */
export function gradeWordsIn(runs: Iterable<readonly [string, readonly Observation[]]>): string[] {
  const found: string[] = [];
  for (const [domain, observations] of runs) {
    for (const o of observations.map(inWords)) {
      const text = JSON.stringify({ label: o.label, summary: o.summary, value: o.value });
      if (GRADE_WORDS.test(text)) found.push(`${domain} ${o.name}: ${text}`);
    }
  }
  return found;
}

/** The text a person reads on a page, without its markup and without the notice that says it is no grade. */
export function readableText(html: string, notice: string): string {
  return html.replace(/<(script|style)[^]*?<\/\1>/g, ' ').replace(/<[^>]+>/g, ' ').replace(/&#39;|&#x27;|&apos;/g, "'").replace(/&amp;/g, '&').replaceAll(notice, ' ');
}
