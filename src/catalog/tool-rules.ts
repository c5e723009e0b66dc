/**
 * The rules a server's tool definitions are scanned by (src/catalog/tool-scan.ts), stated once and
 * in order: what each looks for in the text an AI model reads, how severe a match is, and one plain
 * sentence a reader of the catalog sees. Each rule is tested on its own (test/unit/tool-scan.test.ts)
 * and measured on the real catalog (docs/trust/tool-findings.md).
 *
 * The line drawn throughout: a description may say what the tool does ("Runs a command over SSH",
 * "IMPORTANT: dates are UTC"); it may not order the model beyond the tool: open the user's keys,
 * hide things from the user, rewrite another tool's arguments, pass the conversation along.
 * Imperatives addressed to the model are told apart from descriptions by their form: a bare verb at
 * the start of a clause ("read", not "reads"), secrecy words, a private thing named as the object.
 *
 * Every pattern is linear in its text: gaps are bounded runs of one character class and no
 * repetition is nested without a bound, so a 100 KB description costs milliseconds.
 */
import { pattern, type Pattern, type RuleText } from './rule-text.js';

export type ToolSeverity = 'low' | 'medium' | 'high';

/** Where a text sits: a name (of the tool or a schema property), a title, the tool's description, other schema text. */
export type ToolTextKind = 'name' | 'title' | 'description' | 'schema';

/** What a rule knows beyond the text: the server's other tools. */
export interface ToolRuleContext {
  /** Every tool name of the server, this one included, as lower-case letters and digits. */
  readonly toolNames: readonly string[];
  /** The distinctive words of the server's tool names (`learn-hmr-basics` → learn, hmr, basics). */
  readonly toolWords: ReadonlySet<string>;
  /** The median description length of the server's other tools; null with fewer than two others. */
  readonly peerDescriptionLength: number | null;
}

/** Where in the text a rule matched (UTF-16 offset and length). */
export interface RuleMatch {
  readonly offset: number;
  readonly length: number;
}

export interface ToolRule<Id extends string = string> {
  readonly id: Id;
  readonly severity: ToolSeverity;
  readonly summary: string;
  readonly reads: readonly ToolTextKind[];
  readonly find: (text: RuleText, context: ToolRuleContext) => RuleMatch | null;
}

const PROSE: readonly ToolTextKind[] = ['title', 'description', 'schema'];

/** A lazy gap of at most `max` characters within one sentence (a `.` inside `mcp.json` does not end it). */
const gap = (max: number): string => String.raw`(?:[^.!?\n]|[.!?](?=[\w/\\~]))` + `{0,${max}}?`;
/**
 * One of `verbs`, bare, where it starts a clause or follows a word that makes it an order to the
 * model ("then read", "you must open"). The lookahead comes first so that the lookbehind is tried
 * only where a verb starts.
 */
const ordered = (verbs: string): string => String.raw`\b(?=${verbs})(?<=(?:^|[.!?:;,(\n*>•-]|\b(?:and|then|first|please|always|also|now|must|should|need\s+to|have\s+to|you(?:\s+to)?)\s)[^\S\n]{0,8})${verbs}`;


/** Files where keys, passwords, sessions and client settings are kept (`.ssh/config` and `known_hosts` are not secrets). */
const SECRET_PATH = String.raw`(?:(?<![\w.])\.ssh\b(?![\\/](?:config|known_hosts)\b)|\bid_(?:rsa|dsa|ecdsa|ed25519)\b(?!\.pub)|\bauthorized_keys\b|\.aws[\\/](?:credentials|config)\b|\bapplication_default_credentials\.json|\.config[\\/]gcloud\b|\.kube[\\/]config\b|\.docker[\\/]config\.json|\bmcp\.json\b|\bclaude_desktop_config\.json|(?<![\w.])\.cursor[\\/]|(?<![\w.])\.env(?:\.[a-z]+)?\b|(?<![\w.])\.(?:netrc|npmrc|pypirc|pgpass|git-credentials|gnupg|password-store|bash_history|zsh_history)\b|\/etc\/(?:passwd|shadow|sudoers)\b|\bcookies\.sqlite\b|\blogins\.json\b|\bkey4\.db\b|\b(?:Chrome|Chromium|Edge|Brave|Default|Firefox)[\\/](?:Cookies|Login Data)\b|\blogin\.keychain(?:-db)?\b|\bkeychains?\b|\bwallet\.dat\b|\.ethereum[\\/]keystore)`;
/** Words one of which every match of SECRET_PATH holds. */
const SECRET_WORDS = ['.ssh', 'id_', 'authorized_keys', '.aws', 'application_default_credentials', 'gcloud', '.kube', '.docker', 'mcp.json', 'claude_desktop_config', '.cursor', '.env', 'netrc', 'npmrc', 'pypirc', 'pgpass', 'git-credentials', 'gnupg', 'password-store', 'bash_history', 'zsh_history', 'etc/', 'cookies', 'logins.json', 'key4.db', 'login data', 'keychain', 'wallet.dat', 'ethereum'];
const READ_VERB = String.raw`(?:read|open|cat|load|access|fetch|retrieve|get|grab|collect|copy|upload|send|include|attach|extract|dump|print|paste|forward)\b`;

/** Private data an instruction may ask to move: the conversation, the prompt, stored credentials, secret files. */
const PRIVATE_DATA = String.raw`(?:\b(?:(?:full|entire|whole|complete)\s+(?:conversation|chat|context|history|transcript)|conversation\s+(?:history|so\s+far|transcript|log)|chat\s+(?:history|log|transcript)|message\s+history|(?:previous|prior|past|last|recent|earlier|other|all)\s+(?:\w+\s+)?(?:messages|chats|conversations|prompts|emails)|system\s+prompt|(?:your|the\s+model's|the\s+assistant's)\s+(?:instructions|context)|(?:all|any|every|stored|saved|local|existing|the\s+user's|user's)\s+(?:\w+\s+)?(?:credentials|api\s*keys|secrets|passwords|tokens|private\s+keys?|ssh\s+keys?|cookies|environment\s+variables|(?:seed|mnemonic|recovery)\s+phrases?))|\$[A-Z][A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD)\b|\bprocess\.env\.[A-Z][A-Z0-9_]*|\b(?=[A-Z0-9_]*(?:KEY|TOKEN|SECRET|PASSWORD))[A-Z][A-Z0-9_]*\s+(?:environment\s+variable|env\s+var)|${SECRET_PATH})`;
/** Words one of which every match of PRIVATE_DATA holds. */
const PRIVATE_WORDS = ['conversation', 'chat', 'context', 'history', 'transcript', 'messages', 'prompt', 'emails', 'instructions', 'credentials', 'keys', 'secrets', 'passwords', 'tokens', 'private', 'cookies', 'env', 'phrase', '$', ...SECRET_WORDS];
const MOVE_VERB = String.raw`(?:pass|put|include|insert|add|append|embed|attach|paste|copy|provide|supply|send|forward|upload|post|submit|transmit|share|leak|exfiltrate|encode)`;
const DESTINATION = String.raw`(?:(?:as|in|into)\s+(?:the\s+)?[\x60'\x22][\w-]+[\x60'\x22]|(?:parameter|param|argument|arg|field|sidenote|note|metadata|header|query|url|body|message|request|call|webhook|endpoint)s?\b|(?:to|at)\s+(?:https?:\/\/|[\w.+-]+@[\w-]+\.\w|\+?\d[\d\s-]{6,}\d))`;

const MARKUP = [
  pattern([['<', '[']], String.raw`<\/?\s*(?:important|system|system[_-]?(?:prompt|message|instructions?)|instructions?|secret|hidden|admin|override|sudo|critical|urgent|jailbreak|developer[_-]?(?:mode|instructions?))\b[^<>\n]{0,40}>|<\|(?:im_start|im_end|system|endoftext|begin_of_text|start_header_id|eot_id)\|>|\[\/?(?:INST|SYS|SYSTEM)\]|<<\/?SYS>>|<!--`),
  pattern([['system', 'admin', '[']], String.raw`(?:^|\n)[^\S\n]*(?:#{1,3}[^\S\n]*)?(?:SYSTEM|ADMIN|System[^\S\n]+(?:prompt|message|override|instructions?|note))[^\S\n]*:|\[(?:SYSTEM|SYS|INST|ADMIN)(?:[ _-][A-Z]+){0,2}\]`, ''),
];
const OVERRIDE_VERBS = ['ignore', 'disregard', 'forget', 'override', 'bypass'];
const OVERRIDE = [
  pattern([OVERRIDE_VERBS], String.raw`\b(?:ignore|disregard|forget|override|bypass)\s+(?:all\s+|any\s+)?(?:of\s+)?(?:the\s+|your\s+|my\s+)?(?:previous|prior|above|earlier|preceding|original|initial|system|existing|other|safety|security)\s+(?:\w+\s+)?(?:instructions?|prompts?|directives?|guidelines|guardrails|system\s+prompt)\b`),
  pattern([OVERRIDE_VERBS], String.raw`${ordered('(?:ignore|disregard|forget|override|bypass)')}\s+(?:all\s+|any\s+)?(?:the\s+|your\s+)?(?:safety|security|content)\s+(?:rules|policies|checks|filters|restrictions)\b|\b(?:ignore|disregard)\s+(?:the\s+)?user'?s\s+(?:request|instructions?|question|message|wishes)\b|${ordered('bypass')}\s+(?:the\s+)?(?:user'?s?\s+)?(?:confirmation|approval|consent)\b`),
  pattern([['anthropic', 'openai', 'system', 'developer', 'creator', 'operator', 'administrator']], String.raw`\b(?:message|note|instructions?|notice)\s+from\s+(?:anthropic|openai|the\s+system|the\s+developers?|your\s+(?:developers?|creators?|operator|administrator))\b`),
  pattern([['now', 'instruction', 'priority', 'precedence']], String.raw`\byou\s+are\s+now\s+(?:a|an|the|my|in|no\s+longer|acting|operating|free|unrestricted|jailbroken|allowed|DAN)\b|\bfrom\s+now\s+on,?\s+(?:you|always|never|the\s+assistant)\b|\bnew\s+(?:system\s+)?instructions?\s*:|\b(?:takes?|have|has)\s+(?:priority|precedence)\s+over\s+(?:all\s+|any\s+)?(?:other|previous|user|system|your)\s+(?:\w+\s+)?(?:instructions|prompts|rules|tools|requests)\b`),
];
const CONCEAL = [
  pattern([['not', "don't", 'dont', 'never', 'shouldn', 'without']], String.raw`\b(?:do\s+not|don'?t|never|must\s+not|should\s+not|shouldn'?t|without)\s+(?:ever\s+|even\s+|explicitly\s+)?(?:tell|telling|mention|mentioning|inform|informing|notify|notifying|alert|alerting|reveal|revealing|disclose|disclosing|warn|warning)\s+(?:\w+\s+){0,3}?(?:the\s+|your\s+)?(?:user|human|person|operator|owner|customer)s?\b`),
  pattern([['mention', 'reveal', 'disclose']], String.raw`\b(?:do\s+not|don'?t|never)\s+(?:mention|reveal|disclose)\s+(?:that|this|these|it\b|the\s+(?:above|following|instructions?|note|steps?|fact|side\s*note))`),
  pattern([['keep', 'hide', 'conceal']], String.raw`\b(?:keep|hide|conceal)\s+(?:this|it|these|that|them|the\s+\w+)\s+(?:\w+\s+){0,2}?from\s+(?:the\s+)?(?:user|human)s?\b|\bkeep\s+(?:this|these|it)\s+(?:a\s+)?(?:secret|hidden|confidential)\b`),
  pattern([['not', 'never']], String.raw`\b(?:the\s+)?user\s+(?:must|should|need|needs|will)\s+(?:not|never)\s+(?:to\s+)?(?:know|see|notice|find\s+out|learn|be\s+(?:told|informed|aware|notified))\b`),
];
const COERCION = [
  pattern([['before']], String.raw`\bbefore\s+(?:using|calling|invoking|running|executing)\s+(?:this|the|any)\s+tool\b[^.\n]{0,50}?\b(?:read|open|cat|load|access|collect|gather|upload|send|include|copy|attach|paste|extract)\b`),
  pattern([['otherwise', 'else', 'crash', 'lost']], String.raw`\b(?:otherwise|or\s+else)\b${gap(30)}\b(?:the\s+)?(?:tool|system|server|request|application|app)\s+(?:will|would|may)\s+(?:not\s+work|crash|break|be\s+blocked|refuse)\b|\b(?:system|application|app|tool|server)\s+(?:will|would)\s+crash\b|\ball\s+(?:your\s+|the\s+)?data\s+will\s+be\s+lost\b`),
];
const PREFERENCE = [
  pattern([['before', 'instead', 'not', "don't", 'dont', 'never'], ['tool', 'server', 'instead']], String.raw`\b(?:before|instead\s+of)\s+(?:using\s+|calling\s+|invoking\s+)?(?:any|all|every)\s+(?:other\s+)?tools?\b|\b(?:do\s+not|don'?t|never)\s+(?:use|call|invoke)\s+(?:the\s+|any\s+)?(?:other\s+)?(?!this\b)[\w-]{1,60}\s+(?:tool|server)s?\b|\binstead\s+of\s+(?:the\s+)?(?:default|built-?in|native|standard)\s+(?:\w+\s+){0,2}?(?:tools?|functions?|commands?|terminal|search|browser)\b`),
  pattern([['start', 'beginning', 'before']], String.raw`\b(?:at\s+the\s+(?:start|beginning)\s+of|before)\s+(?:every|each|any)\s+(?:conversation|session|chat|response|reply|answer)\b`),
  pattern([['answer', 'respond', 'reply', 'first', 'instead']], String.raw`\b(?:do\s+not|don'?t|never)\s+(?:answer|respond|reply)\b${gap(40)}\b(?:directly|yourself|on\s+your\s+own)\b|\b(?:always|must)\s+(?:use|call|invoke|run)\s+this\s+tool\s+(?:first|instead)\b`),
];
const SECRET_ACCESS = [
  pattern([SECRET_WORDS], String.raw`${ordered(READ_VERB)}${gap(60)}${SECRET_PATH}`),
  pattern([SECRET_WORDS], String.raw`\b(?:contents?|text)\s+of\s+${gap(30)}${SECRET_PATH}`),
];
const EXFILTRATION = [
  pattern([PRIVATE_WORDS], String.raw`\b${MOVE_VERB}\b${gap(60)}${PRIVATE_DATA}${gap(60)}\b${DESTINATION}`),
  pattern([PRIVATE_WORDS], String.raw`${PRIVATE_DATA}${gap(80)}\b(?:and|then)\s+${MOVE_VERB}\s+(?:it|them|this|that|(?:its|their|the)\s+contents?)\b${gap(40)}\b${DESTINATION}`),
  pattern([['pass']], String.raw`\bpass\s+(?:its|their)\s+(?:full\s+|entire\s+|whole\s+|raw\s+)?(?:contents?|text|value|data)\s+(?:as|in|into|to|via)\b`),
];
const SHADOWING = [
  pattern([['effect']], String.raw`\bside[\s-]effects?\s+on\s+${gap(40)}\b(?:tool|server|function)s?\b`),
  pattern([['present', 'other'], ['tool', 'server', 'function']], String.raw`\b(?:also\s+present|other|another|any\s+other|every\s+other|all\s+other)\s+(?:\w+\s+){0,2}?(?:tools?|servers?|functions?)\s+(?:must|should|shall|needs?\s+to|ha(?:s|ve)\s+to|(?:is|are)\s+to)\b`),
  pattern([['recipient', 'destination', 'receiver', 'address', 'phone', 'account', 'iban']], String.raw`\b(?:change|replace|set|switch|override|redirect|rewrite|update)\s+(?:the\s+|all\s+|every\s+)?(?:recipients?|destination|receiver|to[\s-]address|(?:email|wallet|destination|recipient)\s+address|phone\s+number|account\s+number|iban)\b${gap(40)}\b(?:to|with)\s+[\x60'"]?(?:\+?\d[\d\s-]{6,}\d|[\w.+-]+@[\w-]+\.\w|0x[0-9a-f]{6,}|https?:\/\/)`),
  pattern([['@']], String.raw`\b(?:always|also|must|secretly|silently|quietly|automatically|additionally|every|all|each)\b${gap(40)}\b(?:bcc|cc|blind[\s-]copy|forward|send\s+a\s+copy|copy)\b${gap(40)}[\w.+-]+@[\w-]+\.[a-z]{2,}`),
  pattern([['@']], String.raw`\b(?:bcc|cc|blind[\s-]copy|forward|send\s+a\s+copy|copy)\b${gap(40)}\b(?:every|all|each|any)\s+(?:\w+\s+)?(?:e-?mails?|messages?|mails?)\b${gap(40)}[\w.+-]+@[\w-]+\.[a-z]{2,}`),
  pattern([['server']], String.raw`\b(?:when(?:ever)?|each\s+time|every\s+time|if)\s+(?:you\s+)?(?:use|call|invoke|access|are\s+using|interact\s+with)\s+(?:the\s+|any\s+|another\s+)(?!this\b)[\w.-]{1,60}\s+(?:mcp\s+)?server\b`),
];

/** Instructions about an action ("when sending email, always …") that count only when no tool of the server does it. */
const ACTION_FOR_OTHERS = pattern([['when']], String.raw`\bwhen(?:ever)?\s+(?:you\s+)?(?:send|sending|compose|composing|write|writing|forward|forwarding|transfer|transferring|pay|paying|make|making)\s+(?:an?\s+|any\s+|all\s+)?(e-?mail|message|payment|fund|money|crypto|transaction|transfer|invoice)s?\b${gap(60)}\b(?:always|must|make\s+sure|be\s+sure|ensure|also)\b`);
const ACTION_TOOLS: Readonly<Record<string, readonly string[]>> = {
  mail: ['mail', 'send'],
  message: ['message', 'msg', 'send', 'chat'],
  money: ['pay', 'transfer', 'send', 'fund', 'transaction', 'invoice', 'wallet'],
};
/** A tool's name as written in prose (`send_email`, `send-email`, `sendEmail`); bounded, so that a long run costs little at each start. */
const IDENT = String.raw`[A-Za-z][A-Za-z0-9]{0,40}(?:[_-][A-Za-z0-9]{1,40}){1,8}|[a-z]{1,40}(?:[A-Z][a-z0-9]{0,40}){1,8}`;
/** A named tool: `send_email tool`, `tool sendEmail`, `call send_email`, `when send_email is invoked`. */
/** A reference counts only in a sentence holding an INSTRUCTION, so a text must hold one of those words too. */
const TOOL_REFERENCE = pattern([['tool', 'function', 'call', 'invok', 'used', 'run', 'executed', 'triggered'], ['always', 'must', 'never', 'instead', 'sure', 'not', "don't", 'should', 'change', 'replace', 'redirect', 'override']], String.raw`\b(${IDENT})\b[\x60'"]?\s+(?:[Tt]ool|[Ff]unction)\b|\b[Tt]ool\s+[\x60'"]?(${IDENT})\b|\b(?:[Cc]all|[Ii]nvoke|[Cc]alling|[Ii]nvoking)\s+(?:the\s+)?[\x60'"]?(${IDENT})\b|\b(?:[Ww]hen(?:ever)?|[Aa]fter|[Bb]efore|[Ii]f)\s+(?:the\s+)?(?:\([\w.-]+\)\s+)?[\x60'"]?(${IDENT})\b[\x60'"]?\s+(?:tool\s+)?(?:is|gets|has\s+been|was)\s+(?:called|invoked|used|run|executed|triggered)`, 'g');
const INSTRUCTION = /\b(?:always|must|never|instead|make\s+sure|ensure|do\s+not|don't|should|change|replace|redirect|override)\b/i;

/** Lower-case letters and digits only: how tool names are compared (`send-email` = `sendEmail`). */
export function toolKey(name: string): string {
  return name.toLowerCase().replace(/[^a-z0-9]+/g, '');
}

function earliest(patterns: readonly Pattern[], text: RuleText): RuleMatch | null {
  if (text.quiet) return null;
  let best: RuleMatch | null = null;
  for (const p of patterns) {
    const m = text.mayMatch(p) ? p.regex.exec(text.text) : null;
    if (m && (best === null || m.index < best.offset)) best = { offset: m.index, length: m[0].length };
  }
  return best;
}

const anyOf = (patterns: readonly Pattern[]) => (text: RuleText): RuleMatch | null => earliest(patterns, text);

/** Words too common in tool names to say whose a tool is. */
const COMMON_WORDS = new Set(['get', 'set', 'list', 'create', 'update', 'delete', 'remove', 'add', 'send', 'read', 'write', 'run', 'call', 'use', 'search', 'find', 'fetch', 'query', 'tool', 'tools', 'mcp', 'server', 'the', 'and', 'for', 'new', 'all', 'info', 'data', 'file', 'files']);

/** The distinctive words of a tool name, lower-case (`sendEmail`, `send_email` → email). */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length >= 3 && !COMMON_WORDS.has(word));
}

/**
 * Whether a named tool is the server's own: one of its tools (under a client's prefix too,
 * `mcp_github_create_issue`), or named with its tools' words (a tool the source's list left out).
 */
function isServerTool(name: string, context: ToolRuleContext): boolean {
  const key = toolKey(name);
  if (context.toolNames.some((own) => own === key || (own.length >= 4 && (key.endsWith(own) || own.endsWith(key))))) return true;
  return nameWords(name).some((word) => context.toolWords.has(word));
}

/** The sentence around `at`, at most 200 characters either side. */
function sentenceAt(text: string, at: number): string {
  let start = at;
  while (start > 0 && at - start < 200 && !'.!?\n'.includes(text[start - 1] ?? '')) start -= 1;
  let end = at;
  while (end < text.length && end - at < 200 && !'.!?\n'.includes(text[end] ?? '')) end += 1;
  return text.slice(start, end);
}

/** Shadowing: instructions about other servers, recipients or addresses, or naming a tool this server lacks. */
function findShadowing(text: RuleText, context: ToolRuleContext): RuleMatch | null {
  if (text.quiet) return null;
  let best = earliest(SHADOWING, text);
  const action = text.mayMatch(ACTION_FOR_OTHERS) ? ACTION_FOR_OTHERS.regex.exec(text.text) : null;
  if (action && (best === null || action.index < best.offset)) {
    const noun = (action[1] ?? '').toLowerCase();
    const kind = noun.includes('mail') ? 'mail' : noun === 'message' ? 'message' : 'money';
    const doesIt = context.toolNames.some((name) => (ACTION_TOOLS[kind] ?? []).some((word) => name.includes(word)));
    if (!doesIt) best = { offset: action.index, length: action[0].length };
  }
  if (!text.mayMatch(TOOL_REFERENCE)) return best;
  for (const m of text.text.matchAll(TOOL_REFERENCE.regex)) {
    if (best !== null && m.index >= best.offset) break;
    const name = m[1] ?? m[2] ?? m[3] ?? m[4] ?? '';
    if (isServerTool(name, context) || !INSTRUCTION.test(sentenceAt(text.text, m.index))) continue;
    best = { offset: m.index, length: m[0].length };
  }
  return best;
}

/** Candidates for hidden characters; each is then judged in its context (an emoji's joiner or variation selector is fine). */
const HIDDEN_CANDIDATE = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F-\u009F\u00AD\u034F\u061C\u115F\u1160\u17B4\u17B5\u180B-\u180F\u200B-\u200F\u202A-\u202E\u2060-\u206F\u3164\uFE00-\uFE0F\uFEFF\uFFA0\uFFF9-\uFFFB]|\uDB40[\uDC00-\uDDEF]/g;
const VARIATION = /^(?:[\uFE00-\uFE0F]|\uDB40[\uDD00-\uDDEF])$/;
const ZERO_WIDTH = /^[\u200B-\u200D\u2060\uFEFF]$/;
const ASCII_OR_EDGE = (ch: string | undefined): boolean => ch === undefined || ch.charCodeAt(0) < 0x80;

/** The character (code point) at and just before `i`. */
const charAt = (text: string, i: number): string | undefined => (i < 0 || i >= text.length ? undefined : String.fromCodePoint(text.codePointAt(i) ?? 0));
function charBefore(text: string, i: number): string | undefined {
  if (i <= 0) return undefined;
  const low = text.charCodeAt(i - 1);
  return low >= 0xdc00 && low <= 0xdfff && i >= 2 ? charAt(text, i - 2) : charAt(text, i - 1);
}

/** The length of a subdivision flag's tags (🏴 + tag letters + cancel tag: England's flag) starting at `i`; 0 if none. */
function flagTagsAt(text: string, i: number): number {
  if (text.codePointAt(i - 2) !== 0x1f3f4) return 0;
  return /^(?:\uDB40[\uDC30-\uDC39\uDC61-\uDC7A]){1,6}\uDB40\uDC7F/.exec(text.slice(i, i + 16))?.[0].length ?? 0;
}

function isBenignHidden(text: string, i: number, ch: string): boolean {
  const prev = charBefore(text, i);
  const next = charAt(text, i + ch.length);
  if (VARIATION.test(ch)) return prev !== undefined && !VARIATION.test(prev) && (next === undefined || !VARIATION.test(next));
  if (ch === '\u200C' || ch === '\u200D') return !(ASCII_OR_EDGE(prev) && ASCII_OR_EDGE(next)) && !(next !== undefined && ZERO_WIDTH.test(next));
  if (ch === '\u200E' || ch === '\u200F' || ch === '\u061C') return !(ASCII_OR_EDGE(prev) && ASCII_OR_EDGE(next));
  if (ch === '\uFEFF') return i === 0;
  return false;
}

function findHidden({ text }: RuleText): RuleMatch | null {
  HIDDEN_CANDIDATE.lastIndex = 0;
  for (let m = HIDDEN_CANDIDATE.exec(text); m !== null; m = HIDDEN_CANDIDATE.exec(text)) {
    const flag = m[0].length === 2 ? flagTagsAt(text, m.index) : 0;
    if (flag > 0) HIDDEN_CANDIDATE.lastIndex = m.index + flag;
    else if (!isBenignHidden(text, m.index, m[0])) return { offset: m.index, length: m[0].length };
  }
  return null;
}

/** Letters that pass for Latin ones: Cyrillic, Greek and Armenian look-alikes. */
const LOOKALIKE = /[аеорсухіјѕԁԛԝһӏүАВЕКМНОРСТУХІЈЅαονρτυικΑΒΕΖΗΙΚΜΝΟΡΤΥΧօսհոց]/u;
const LATIN = /\p{Script=Latin}/u;
const OTHER_SCRIPT = /[\p{Script=Cyrillic}\p{Script=Greek}\p{Script=Armenian}\p{Script=Cherokee}]/u;

/** A word mixing Latin with look-alike letters, a word spelt only in look-alikes beside Latin words, or letters styled to pass for ASCII. */
function findLookalike({ text }: RuleText): RuleMatch | null {
  if (!/[^\x00-\x7F]/.test(text)) return null;
  const words = [...text.matchAll(/[\p{L}\p{M}\p{N}]+/gu)];
  const latinBeside = words.some((w) => /^[A-Za-z0-9]+$/.test(w[0]));
  for (const w of words) {
    const word = w[0];
    const styled = [...word].some((ch) => ch.charCodeAt(0) > 0x7f && /^[A-Za-z]$/.test(ch.normalize('NFKC')));
    const mixed = LATIN.test(word) && OTHER_SCRIPT.test(word) && /[A-Za-z]/.test(word);
    const disguised = latinBeside && [...word].every((ch) => LOOKALIKE.test(ch) || /[0-9]/.test(ch)) && LOOKALIKE.test(word);
    if (styled || mixed || disguised) return { offset: w.index, length: word.length };
  }
  return null;
}


function findEncoded(text: RuleText, readable: boolean): RuleMatch | null {
  let best: RuleMatch | null = null;
  for (const r of text.encoded) {
    if ((readable ? r.readable : r.blob && !r.readable) && (best === null || r.index < best.offset)) best = { offset: r.index, length: r.length };
  }
  return best;
}

/**
 * Description length: over LONG.limit characters (the longest 0.1% of the 8,767 real tools are over
 * 3,940; the median is 57), or at least LONG.minLength and LONG.peerRatio times the median of the
 * server's other tools (a poisoned tool beside short honest ones).
 */
const LONG = { limit: 4_000, minLength: 600, peerRatio: 6 };

/** The rules, most severe first; findings name them by id. */
export const TOOL_RULES = [
  { id: 'instruction_markup', severity: 'high', summary: 'Text dressed up as a system message or an urgent hidden note for the AI model.', reads: PROSE, find: anyOf(MARKUP) },
  { id: 'instruction_override', severity: 'high', summary: 'Tells the AI model to set aside its earlier instructions or to take on a new role.', reads: PROSE, find: anyOf(OVERRIDE) },
  { id: 'conceal_from_user', severity: 'high', summary: 'Asks the AI model to keep something from the user.', reads: PROSE, find: anyOf(CONCEAL) },
  { id: 'secret_file_access', severity: 'high', summary: 'Tells the AI model to open private files where keys, passwords or app settings are kept.', reads: PROSE, find: anyOf(SECRET_ACCESS) },
  { id: 'exfiltration', severity: 'high', summary: 'Asks the AI model to put private data (the conversation, files, passwords) into an argument or send it somewhere.', reads: PROSE, find: anyOf(EXFILTRATION) },
  { id: 'tool_shadowing', severity: 'high', summary: 'Tells the AI model how to use other tools or servers, not this one.', reads: PROSE, find: findShadowing },
  { id: 'invisible_characters', severity: 'high', summary: 'Contains characters a person cannot see but the AI model still reads.', reads: ['name', 'title', 'description', 'schema'], find: findHidden },
  { id: 'lookalike_name', severity: 'high', summary: 'A name mixes letters from different alphabets, so it can pass for another name.', reads: ['name', 'title'], find: findLookalike },
  { id: 'coercive_instructions', severity: 'medium', summary: 'Demands a hidden first step, or threatens that something will break, to push the AI model into acting.', reads: PROSE, find: anyOf(COERCION) },
  { id: 'encoded_text', severity: 'medium', summary: 'Hides readable text in an encoded block (base64 or hex).', reads: PROSE, find: (text: RuleText) => findEncoded(text, true) },
  { id: 'preference_manipulation', severity: 'low', summary: 'Pushes the AI model to pick this tool first or always, over others.', reads: PROSE, find: anyOf(PREFERENCE) },
  { id: 'secret_file_named', severity: 'low', summary: 'Names a private file where keys, passwords or app settings are kept.', reads: PROSE, find: anyOf([pattern([SECRET_WORDS], SECRET_PATH)]) },
  { id: 'encoded_blob', severity: 'low', summary: 'Carries a long encoded block (base64 or hex) that does not decode to text.', reads: PROSE, find: (text: RuleText) => findEncoded(text, false) },
  {
    id: 'oversized_description',
    severity: 'low',
    summary: 'The description is far longer than those of other tools.',
    reads: ['description'],
    find: ({ text }: RuleText, context: ToolRuleContext) => {
      const peers = context.peerDescriptionLength;
      const long = text.length > LONG.limit || (peers !== null && text.length >= LONG.minLength && text.length >= LONG.peerRatio * peers);
      return long ? { offset: 0, length: 0 } : null;
    },
  },
] as const satisfies readonly ToolRule[];

export type ToolRuleId = (typeof TOOL_RULES)[number]['id'];

export const TOOL_RULE_IDS: readonly ToolRuleId[] = TOOL_RULES.map((rule) => rule.id);
