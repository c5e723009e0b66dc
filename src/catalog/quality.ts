/**
 * Quality signals (DESIGN.md "One server, one entry; unknown is not zero"): the rules, stated once
 * and in order, that flag a server record as a test, a template, a placeholder or a copy of
 * another, and a tool whose name is not a name. A flag removes nothing: a flagged server ranks
 * below unflagged ones of equal relevance (src/search/ranking.ts) and comes after them when
 * browsing. Flags are computed at ingest: materialize.ts gives a record its own, and
 * src/store/quality-flags.ts adds `duplicate` after each catalog write, since only the catalog
 * knows the publisher's other servers. Each rule is tested on its own (test/unit/quality.test.ts)
 * and all of them against hand-labelled real records (test/fixtures/quality/labelled.json).
 *
 * The line drawn throughout: a flag says what the record is, never what the server is about. A
 * server *for* testing (Playwright, test management, a speed test), an example inside a real
 * description, a curated entry without a description: none of them is flagged.
 */
import type { ServerQualityFlag, ToolQualityFlag } from '../types.js';
import { isCopy } from './copy-names.js';

/** One rule: its short name, the flag it raises, what it says in plain words, and its test. */
export interface QualityRule<Flag extends string, Subject> {
  readonly name: string;
  readonly flag: Flag;
  readonly rule: string;
  readonly test: (subject: Subject) => boolean;
}

/** What the server rules read of a record. */
export interface ServerSubject {
  /** The canonical name, namespace included (`io.github.someone/weather`). */
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  /**
   * The names (lower-case, namespace included) of the other servers under the same namespace,
   * for `duplicate`; absent where the catalog is not known (the rule then raises nothing).
   */
  readonly siblings?: ReadonlySet<string>;
}

/** The server flags in the contract's order (`ServerQualityFlag`). */
export const SERVER_QUALITY_FLAGS: readonly ServerQualityFlag[] = ['test', 'template', 'placeholder', 'duplicate'];
/** The tool flags in the contract's order (`ToolQualityFlag`). */
export const TOOL_QUALITY_FLAGS: readonly ToolQualityFlag[] = ['not_a_name', 'name_too_long'];

/** A tool name longer than this is refused by several clients (Claude Desktop, the OpenAI API). */
export const MAX_TOOL_NAME = 64;

/**
 * Words of a name that say nothing of what the record is: the protocol, languages, transports,
 * numbers and versions. A test or template word among only these is the whole name.
 */
const GENERIC = new Set([
  'mcp', 'server', 'servers', 'my', 'simple', 'basic', 'remote', 'local', 'sse', 'http', 'stdio', 'streamable', 'app', 'repo', 'package', 'pkg',
  'node', 'nodejs', 'js', 'ts', 'typescript', 'python', 'py', 'go', 'golang', 'java', 'dotnet', 'net', 'csharp', 'rust',
]);
const isGeneric = (word: string): boolean => GENERIC.has(word) || /^v?\d+$/.test(word);

/** A name word that marks a test copy: `test`, `test01`, `staging`. */
const TEST_WORD = /^(?:test|tests|tst|staging)\d*$/;
/** Words that make `X-test` the name of a kind of test (a speed test, a load test), not a test copy. */
const KINDS_OF_TEST = new Set([
  'speed', 'load', 'unit', 'stress', 'smoke', 'e2e', 'integration', 'regression', 'performance', 'perf', 'penetration', 'pen', 'ab', 'usability',
  'accessibility', 'a11y', 'api', 'ui', 'browser', 'visual', 'mutation', 'contract', 'fuzz', 'security', 'personality', 'iq', 'blood', 'lab', 'drug',
  'typing', 'turing', 'hearing', 'vision', 'driving', 'network', 'internet', 'connection', 'bandwidth', 'latency', 'mock', 'a', 'b',
]);
/** Name words that make a record a template to build from. */
const TEMPLATE_WORD = /^(?:template|templates|boilerplate|starter|scaffold|skeleton|sample|samples|example|examples|demo|demos|hello|helloworld|playground)\d*$/;

/** Reverse-DNS namespace words below the publisher's domain that say a deployment is not production (`live.alpic.staging`). */
const TEST_SUBDOMAIN = new Set(['staging', 'test', 'testing']);

/**
 * The words of a name, lower-case, without its namespace, and without the publisher's handle
 * where a host puts it first (`ai.smithery/someone-weather`, toolsdk's mirrors of official
 * names): `Knapcode.SampleMcpServer` → knapcode, sample, mcp, server.
 */
export function nameWords(name: string): string[] {
  const slash = name.lastIndexOf('/');
  const namespace = name.slice(0, Math.max(0, slash)).toLowerCase();
  let last = name.slice(slash + 1);
  if (namespace === 'ai.smithery') last = last.replace(/^[^-]+-(?=.)/, '');
  if (namespace === '@toolsdk-remote') last = last.replace(/^(?:ai-smithery-[^-]+-|io-github-[^-]+-|(?:com|io|ai|dev|app|co|net|org|live)-[^-]+-)(?=.)/i, '');
  return last.replace(/([a-z])([A-Z])/g, '$1 $2').toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
}

/** Lower-case words of a text. */
const wordsOf = (text: string): string[] => text.toLowerCase().split(/[^\p{L}\p{N}]+/u).filter((word) => word !== '');
/** The words of a title read as a name: what parentheses hold qualifies it ("Everything (test server)"), and is left out. */
const titleWords = (title: string | null): string[] => wordsOf((title ?? '').replace(/\([^)]*\)/g, ' '));

/** Whether the record's title names it as something else: it has one, and it holds none of `words`. */
function titleSaysOtherwise(title: string | null, words: RegExp): boolean {
  if (title === null || title.trim() === '') return false;
  return !wordsOf(title).some((word) => words.test(word));
}

/** The last meaningful word of a name (or title) is a test word, not after a kind of test: `reddit-ads-mcp-test`, `test0`, `mcp-test`. */
function saysTest(words: readonly string[]): boolean {
  let last = words.length - 1;
  while (last >= 0 && isGeneric(words[last] as string)) last -= 1;
  if (last < 0) return false;
  const word = words[last] as string;
  if (TEST_WORD.test(word)) return !KINDS_OF_TEST.has(words[last - 1] ?? '');
  // `testing` is mostly what a server does (tox testing, load testing), unless nothing else is in the name.
  return word === 'testing' && words.slice(0, last).every(isGeneric);
}

/** A name (or title) of a template word and generic words only: `mcp-server-template`, `demo-mcp-server`, `mcp-sse-demo-02`. */
function saysTemplate(words: readonly string[]): boolean {
  return words.some((word) => TEMPLATE_WORD.test(word)) && words.every((word) => TEMPLATE_WORD.test(word) || isGeneric(word));
}

/** Whether a reverse-DNS namespace holds a staging or test subdomain (`live.alpic.staging/…`, `ai.alpic.test/…`). */
function namespaceSaysTest(name: string): boolean {
  const slash = name.indexOf('/');
  if (slash <= 0) return false;
  const parts = name.slice(0, slash).toLowerCase().split('.');
  // The first two parts are the publisher's domain (`live.alpic`); GitHub's third is a user.
  if (parts[0] === 'io' && parts[1] === 'github') return false;
  return parts.slice(2).some((part) => TEST_SUBDOMAIN.has(part));
}

/** Title and description, one text. */
const textOf = (s: ServerSubject): string => `${s.title ?? ''}\n${s.description}`;

/** What says, in a title or description, that the record is a test. */
const TEST_TEXT = [
  // Not one that says what it tests: "Everything (test server)", "a test server that exercises every MCP feature".
  /\btest (?:mcp )?(?:server|record|entry|deployment|instance|publication)\b(?!\s*\)|\s+(?:for|that|which|to|exercising)\b)/i,
  /\bfor test(?:ing)? purposes?\b/i,
  /\((?:a |just a )?test\)|\[test\]/i,
  /\b(?:just|only) (?:a )?test(?:ing)?\b/i,
];

/** What says, in a title or description, that the record is a template, sample or demo to build from. */
const TEMPLATE_TEXT = [
  // The whole text: "Template!", "Template server", "Sample .NET MCP Server".
  /^\s*(?:an?\s+)?(?:sample|example|demo|template|boilerplate|starter)(?:\s+\S+)?(?:\s+mcp)?(?:\s+s\w*)?[\s!.]*$/i,
  // Not after a dash: "zero-boilerplate MCP server framework" is a real one.
  /(?<!-)\b(?:sample|example|demo|toy|dummy|boilerplate|template|skeleton) (?:mcp )?(?:server|entry)\b/i,
  /\b(?:an?|the) (?:sample|example|demo|toy|dummy|starter|boilerplate) (?:\S+ )?(?:project|app|application|implementation|repository)\b/i,
  /\btemplate (?:repository|repo)\b|\btemplate for (?:building|creating|developing|writing|making|scalable)\b|\bstarter (?:kit|template)\b/i,
  /\bsample tools\b|\bexample implementation\b|\bdemonstration (?:mcp )?server\b|\b(?:created|made|built) (?:for|as) (?:a )?demo\b/i,
];

/** What says the record does not work yet; "work in progress" and the like only as the whole text. */
const NOT_FUNCTIONAL = [
  /\bnon[- ]?functional (?:mcp )?server\b|\bserver (?:is )?not (?:yet )?(?:functional|ready)\b/i,
  /^\s*(?:still\s+)?(?:a\s+)?(?:work in progress|wip|not ready|coming soon|under construction)\b[^\n]{0,20}$/i,
];

/**
 * The greeting server of hosting templates: greeting is what its description says first ("Send
 * friendly, personalized greetings by name", "Greet people by name"), or it greets and tells the
 * origin of "Hello, World", speaks like a pirate or adds numbers. Greeting cards are not greetings.
 */
const GREETING_FIRST = /^\s*(?:[\p{L}\p{N}'-]+[\s,]+){0,4}?(?:greet\w*|salutations?)\b(?! cards?\b)/iu;
const GREETING = /\bgreet(?!\w* cards?\b)/i;
const GREETING_TEMPLATE = /\bhello,? world\b|\bpirate\b|\badd(?:ing|s)? (?:two )?numbers\b/i;

/** Descriptions that stand where a description should be (compared lower-case, without end punctuation). */
const PLACEHOLDER_TEXT = [
  /^(?:todo|tbd|tba|fixme|xxx|n\/?a|none|null|undefined|test|testing|description|desc|ok|okay|hello|hello world|hi|foo|bar|asdf|placeholder|super description|my description|server description|a description|add (?:a )?description(?: here)?|(?:your )?description (?:goes )?here)$/,
  /^description of (?:my|the|your|this) (?:mcp )?server\b/,
  /\blorem ipsum\b/,
  /^(?:an?|my|the) (?:simple |basic |new |first )?mcp serv\w*$/,
];
/** The default title of hosting templates: "My MCP Server!", cut short as "My MCP Serv". */
const PLACEHOLDER_TITLE = /^\s*my (?:first |own |new )?mcp(?: s\w*)?[\s!.]*$/i;

/** Letters and digits only, lower-case, less a leading or trailing "MCP server": how "the name repeated" is compared. */
const bare = (text: string): string =>
  text.toLowerCase().replace(/[^\p{L}\p{N}]+/gu, '').replace(/^(?:mcp)?(?:servers?)?/, '').replace(/(?:mcp)?(?:servers?)?$/, '');

function placeholderText(s: ServerSubject): boolean {
  const description = s.description.trim().toLowerCase().replace(/[\s.!?…]+$/u, '');
  if (description === '') return (s.title ?? '').trim() === '';
  if (PLACEHOLDER_TEXT.some((pattern) => pattern.test(description))) return true;
  const said = bare(description);
  return said !== '' && said === bare(s.name.slice(s.name.lastIndexOf('/') + 1));
}

/** The server rules, in order; a record raises each flag whose rule (any of its rules) applies. */
export const SERVER_QUALITY_RULES: readonly QualityRule<ServerQualityFlag, ServerSubject>[] = [
  {
    name: 'test subdomain',
    flag: 'test',
    rule: 'a reverse-DNS namespace with a staging or test part below the publisher\'s domain (live.alpic.staging/…, ai.alpic.test/…); not a GitHub user',
    test: (s) => namespaceSaysTest(s.name),
  },
  {
    name: 'test name',
    flag: 'test',
    rule: 'the name\'s last word, less mcp/server/numbers, is test, test01 or staging (reddit-ads-mcp-test, arjunkmrm-test0, "Test Repo MCP"), not after a kind of test (internet-speed-test); the title\'s alike; a title without a test word outweighs the name',
    test: (s) => (saysTest(nameWords(s.name)) && !titleSaysOtherwise(s.title, TEST_WORD)) || saysTest(titleWords(s.title)),
  },
  {
    name: 'test text',
    flag: 'test',
    rule: 'the title or description calls it a test: "Test MCP Server", "for testing purposes", "(test)", "just a test"; not a server for testing ("a test server that exercises every MCP feature")',
    test: (s) => TEST_TEXT.some((pattern) => pattern.test(textOf(s))),
  },
  {
    name: 'template name',
    flag: 'template',
    rule: 'the name is a template, sample, demo, example or hello word among generic words only (mcp-server-template, demo-mcp-server, mcp-sse-demo-02); the title alike; a title without such a word outweighs the name',
    test: (s) => (saysTemplate(nameWords(s.name)) && !titleSaysOtherwise(s.title, TEMPLATE_WORD)) || saysTemplate(titleWords(s.title)),
  },
  {
    name: 'template text',
    flag: 'template',
    rule: 'the title or description says it is one: "Template!", "A sample MCP server", "Demo server entry", "template repository for developing MCP servers", "sample tools"; templates a server manages (email templates, prompt templates) are not',
    test: (s) => TEMPLATE_TEXT.some((pattern) => pattern.test(s.title ?? '') || pattern.test(s.description)),
  },
  {
    name: 'greeting template',
    flag: 'template',
    rule: 'the description is the greeting server of hosting templates: greeting is the first thing it says it does ("Send friendly greetings by name"), or it greets and tells the origin of "Hello, World", speaks like a pirate or adds numbers',
    test: (s) => GREETING_FIRST.test(s.description) || (GREETING.test(s.description) && GREETING_TEMPLATE.test(s.description)),
  },
  {
    name: 'not functional',
    flag: 'template',
    rule: 'it says it does not work yet: "A non functional MCP server (yet)", "Server not ready (yet!)", or only "Work in progress"',
    test: (s) => NOT_FUNCTIONAL.some((pattern) => pattern.test(s.description)),
  },
  {
    name: 'placeholder text',
    flag: 'placeholder',
    rule: 'neither title nor description; or a description that stands in for one ("TODO", "description", "Description of my MCP server", lorem ipsum, "A simple MCP server") or only repeats the name, give or take "MCP server" ("Crypto Bytes MCP Server" for crypto-bytes)',
    test: placeholderText,
  },
  {
    name: 'placeholder title',
    flag: 'placeholder',
    rule: 'the default title of hosting templates: "My MCP Server!", cut short or not',
    test: (s) => s.title !== null && PLACEHOLDER_TITLE.test(s.title),
  },
  {
    name: 'copy',
    flag: 'duplicate',
    rule: 'a numbered, local, dev or test copy of another server of the same namespace: the name less its copy markers is another\'s (coti-mcp-1 beside coti-mcp, ahoy2 beside ahoy), or the handle the others start with (arjunkmrm-local02 beside arjunkmrm-time); versions (-v2) are not copies',
    test: (s) => isCopy(s.name, s.siblings),
  },
];

/** The tool rules, in order: they read the tool's name. */
export const TOOL_QUALITY_RULES: readonly QualityRule<ToolQualityFlag, string>[] = [
  {
    name: 'not a name',
    flag: 'not_a_name',
    rule: 'empty, without a letter or digit, or holding a run of three or more punctuation marks or spaces (_________available_mcp_services_________)',
    test: (name) => !/[\p{L}\p{N}]/u.test(name) || /[^\p{L}\p{N}]{3,}/u.test(name),
  },
  {
    name: 'too long',
    flag: 'name_too_long',
    rule: `longer than ${MAX_TOOL_NAME} characters, more than several clients accept`,
    test: (name) => [...name].length > MAX_TOOL_NAME,
  },
];

/** The flags a server's rules raise, in SERVER_QUALITY_FLAGS order. */
export function serverQualityFlags(subject: ServerSubject): ServerQualityFlag[] {
  const raised = new Set(SERVER_QUALITY_RULES.filter((rule) => rule.test(subject)).map((rule) => rule.flag));
  return SERVER_QUALITY_FLAGS.filter((flag) => raised.has(flag));
}

/** The flags a tool name raises, in TOOL_QUALITY_FLAGS order. */
export function toolQualityFlags(name: string): ToolQualityFlag[] {
  const raised = new Set(TOOL_QUALITY_RULES.filter((rule) => rule.test(name)).map((rule) => rule.flag));
  return TOOL_QUALITY_FLAGS.filter((flag) => raised.has(flag));
}

/**
 * The names among `names` that are copies of another of their namespace (the `duplicate` rules),
 * lower-case: what the catalog's pass after each write reads (src/store/quality-flags.ts).
 */
export function copiesAmong(names: Iterable<string>): Set<string> {
  const byNamespace = new Map<string, Set<string>>();
  for (const name of names) {
    const lower = name.toLowerCase();
    const slash = lower.lastIndexOf('/');
    if (slash <= 0) continue;
    const namespace = lower.slice(0, slash);
    let siblings = byNamespace.get(namespace);
    if (siblings === undefined) byNamespace.set(namespace, (siblings = new Set()));
    siblings.add(lower);
  }
  const rules = SERVER_QUALITY_RULES.filter((rule) => rule.flag === 'duplicate');
  const copies = new Set<string>();
  for (const siblings of byNamespace.values()) {
    if (siblings.size < 2) continue;
    for (const name of siblings) if (rules.some((rule) => rule.test({ name, title: null, description: '', siblings }))) copies.add(name);
  }
  return copies;
}
