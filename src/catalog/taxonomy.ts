/**
 * The fixed category taxonomy (DESIGN.md "Categories") and the rules that place a server in it
 * at ingest. The rules, in order:
 *
 * 1. **What is read.** The server's upstream categories and tags (the Docker catalog gives a
 *    category and tags, toolsdk a category), its name *without* the
 *    publisher's namespace (`io.github.someone/`, `com.example/`, `@scope/`, `mcp/`, and the
 *    dashed form toolsdk's mirrors give it: who published it, not what it does – DESIGN.md
 *    "Search quality"), its title, its description
 *    (links removed) and its tools' names and descriptions. Names are split into words
 *    (`server-google-maps`, `getWeather` → `google maps`, `get weather`).
 * 2. **Upstream categories first.** An upstream category listed in a slug's `upstream` scores 6.
 *    Catch-all values decide nothing: `other-tools-and-integrations`, `uncategorized`, and
 *    Docker's `devops`, which that catalog gives to a third of its servers (Time, Fetch and
 *    Google Maps among them). Tags, and categories too, are read as words (rule 3).
 * 3. **Keywords, whole words.** A keyword matches as a whole word or phrase, case-insensitively,
 *    also with a plural `s`. Each place it matches adds once, however often: name or title 3,
 *    description 2, tags and categories 2, tools 1 (2 when at least a third of the tools match).
 *    Keywords are chosen to say what a server is about: words every MCP server uses (`llm`,
 *    `agent`, `search`, `tasks`, `fetch`, `code`, `repository`, `map`) are not keywords.
 * 4. **Threshold and cap.** A category is kept when it scores at least 2 and at least half of
 *    the best score; at most 3, best first (ties in taxonomy order), so the first category is
 *    the server's primary one. `other` when none is kept.
 */

export interface CategoryDefinition {
  readonly slug: string;
  readonly name: string;
  /** Upstream category names (lower-case) that map here. */
  readonly upstream: readonly string[];
  /** Whole words or phrases (lower-case) in what a server says of itself that suggest this category. */
  readonly keywords: readonly string[];
}

export const TAXONOMY: readonly CategoryDefinition[] = [
  {
    slug: 'developer-tools', name: 'Developer tools',
    upstream: ['developer-tools', 'development', 'devtools', 'code', 'coding-agents', 'code-execution', 'command-line', 'embedded-system'],
    keywords: ['coding', 'codebase', 'source code', 'code review', 'code analysis', 'code generation', 'code execution', 'execute code', 'run code', 'ide', 'vscode', 'vs code', 'jetbrains', 'lint', 'linter', 'compiler', 'debugger', 'debugging', 'npm', 'pypi', 'sdk', 'api testing', 'terminal', 'shell', 'command line', 'programming', 'developer', 'refactoring', 'unit test', 'openapi', 'swagger', 'postman', 'sandbox', 'language server', 'lsp', 'xcode', 'android studio', 'vim', 'neovim', 'emacs', 'curl', 'http client', 'http request', 'accessibility testing', 'wcag', 'code issues', 'code quality', 'static analysis'],
  },
  {
    slug: 'version-control', name: 'Version control',
    upstream: ['version-control', 'git'],
    keywords: ['git', 'github', 'gitlab', 'bitbucket', 'gitea', 'pull request', 'merge request', 'commit'],
  },
  {
    slug: 'databases', name: 'Databases',
    upstream: ['databases', 'database'],
    keywords: ['database', 'sql', 'postgres', 'postgresql', 'mysql', 'mariadb', 'sqlite', 'mongodb', 'redis', 'supabase', 'bigquery', 'snowflake', 'neo4j', 'cypher', 'clickhouse', 'duckdb', 'dynamodb', 'firestore', 'cassandra', 'couchbase', 'nosql', 'vector database', 'pinecone', 'qdrant', 'milvus', 'weaviate', 'chroma', 'elasticsearch', 'opensearch', 'mssql', 'oracle database', 'prisma', 'airtable'],
  },
  {
    slug: 'data-analytics', name: 'Data and analytics',
    upstream: ['data-science-tools', 'data-platforms', 'analytics', 'data-analytics', 'data-visualization', 'customer-data-platforms'],
    keywords: ['analytics', 'dashboard', 'visualization', 'visualize', 'chart', 'spreadsheet', 'excel', 'google sheets', 'csv', 'dataset', 'data analysis', 'data science', 'business intelligence', 'tableau', 'power bi', 'looker', 'pandas', 'jupyter', 'statistics', 'google analytics', 'mixpanel', 'amplitude', 'posthog', 'time series', 'forecasting', 'anomaly detection'],
  },
  {
    slug: 'search', name: 'Search',
    upstream: ['search', 'news'],
    keywords: ['web search', 'search engine', 'serp', 'google search', 'bing', 'brave search', 'duckduckgo', 'perplexity', 'tavily', 'exa', 'kagi', 'searxng', 'search the web', 'internet search', 'arxiv', 'pubmed', 'semantic scholar', 'academic papers', 'research papers'],
  },
  {
    slug: 'web-scraping', name: 'Web scraping and extraction',
    upstream: ['search-data-extraction', 'web-scraping'],
    keywords: ['scrape', 'scraping', 'scraper', 'crawl', 'crawler', 'crawling', 'web page', 'webpage', 'web content', 'website content', 'fetch url', 'fetch a url', 'fetches a url', 'url to markdown', 'html to markdown', 'firecrawl', 'apify', 'extract content', 'data extraction', 'web data'],
  },
  {
    slug: 'browser-automation', name: 'Browser automation',
    upstream: ['browser-automation'],
    keywords: ['browser', 'playwright', 'puppeteer', 'selenium', 'headless', 'chrome', 'chromium', 'web automation'],
  },
  {
    slug: 'cloud-platforms', name: 'Cloud platforms',
    upstream: ['cloud-platforms', 'cost-management'],
    keywords: ['aws', 'amazon web services', 'azure', 'gcp', 'google cloud', 'cloudflare', 'vercel', 'netlify', 'heroku', 'digitalocean', 'fly.io', 'serverless', 'lambda', 'cloud run', 'ec2', 'cloud infrastructure', 'cloudformation', 'alibaba cloud', 'tencent cloud', 'oracle cloud'],
  },
  {
    slug: 'devops', name: 'DevOps and CI/CD',
    upstream: [],
    keywords: ['devops', 'ci', 'ci/cd', 'continuous integration', 'deployment', 'docker', 'container', 'kubernetes', 'k8s', 'kubectl', 'helm', 'terraform', 'pulumi', 'ansible', 'jenkins', 'circleci', 'github actions', 'buildkite', 'argocd', 'artifact', 'infrastructure as code', 'openshift', 'proxmox', 'virtual machine'],
  },
  {
    slug: 'monitoring', name: 'Monitoring and observability',
    upstream: ['monitoring', 'observability'],
    keywords: ['monitoring', 'observability', 'logs', 'logging', 'tracing', 'traces', 'alert', 'alerting', 'incident', 'on-call', 'sentry', 'grafana', 'datadog', 'prometheus', 'new relic', 'pagerduty', 'opsgenie', 'uptime', 'apm', 'error tracking', 'metrics', 'opentelemetry', 'splunk', 'profiling'],
  },
  {
    slug: 'security', name: 'Security',
    upstream: ['security'],
    keywords: ['security', 'vulnerability', 'vulnerabilities', 'pentest', 'penetration testing', 'malware', 'threat', 'threat intelligence', 'cve', 'exploit', 'secrets scanning', 'osint', 'shodan', 'virustotal', 'siem', 'firewall', 'appsec', 'password manager', '1password', 'bitwarden', 'compliance'],
  },
  {
    slug: 'communication', name: 'Communication',
    upstream: ['communication', 'messaging'],
    keywords: ['slack', 'discord', 'email', 'e-mail', 'gmail', 'outlook', 'sms', 'telegram', 'whatsapp', 'microsoft teams', 'messaging', 'twilio', 'mattermost', 'zulip', 'imap', 'smtp', 'twitter', 'tweet', 'reddit', 'bluesky', 'mastodon', 'social media', 'wechat', 'phone call', 'chat messages', 'send messages', 'zendesk', 'intercom', 'mailbox'],
  },
  {
    slug: 'productivity', name: 'Productivity',
    upstream: ['productivity', 'business', 'support-service-management'],
    keywords: ['notion', 'calendar', 'todo', 'to-do', 'task management', 'project management', 'jira', 'linear', 'asana', 'trello', 'confluence', 'clickup', 'todoist', 'obsidian', 'evernote', 'google docs', 'microsoft 365', 'office 365', 'note-taking', 'meeting', 'scheduling', 'reminder', 'zapier', 'monday.com', 'basecamp', 'word documents', 'powerpoint', 'issue tracking', 'ticket'],
  },
  {
    slug: 'knowledge-memory', name: 'Knowledge and memory',
    upstream: ['knowledge-memory', 'knowledge', 'documentation'],
    keywords: ['memory', 'memories', 'knowledge base', 'knowledge graph', 'knowledge', 'documentation', 'docs', 'rag', 'embeddings', 'vector search', 'semantic search', 'wiki', 'wikipedia', 'reasoning', 'thinking', 'mem0', 'notes'],
  },
  {
    slug: 'file-systems', name: 'Files and storage',
    upstream: ['file-systems'],
    keywords: ['file', 'files', 'filesystem', 'file system', 'folder', 'directory', 'directories', 's3', 'object storage', 'cloud storage', 'file storage', 'google drive', 'onedrive', 'dropbox', 'sharepoint', 'ftp', 'sftp'],
  },
  {
    slug: 'finance', name: 'Finance and payments',
    upstream: ['finance-fintech', 'finance', 'payments', 'fintech', 'blockchain'],
    keywords: ['payment', 'stripe', 'paypal', 'invoice', 'finance', 'financial', 'stock market', 'stock price', 'stocks', 'crypto', 'cryptocurrency', 'bitcoin', 'ethereum', 'solana', 'blockchain', 'web3', 'defi', 'wallet', 'stock trading', 'crypto trading', 'trading bot', 'trading strategies', 'bank', 'banking', 'accounting', 'quickbooks', 'xero', 'tax', 'budget', 'expense', 'forex', 'exchange rate', 'market data', 'nft', 'smart contract', 'onchain', 'on-chain', 'dex', 'token swap'],
  },
  {
    slug: 'commerce-marketing', name: 'Commerce and marketing',
    upstream: ['marketing', 'crm', 'commerce', 'ecommerce'],
    keywords: ['marketing', 'crm', 'seo', 'ads', 'advertising', 'google ads', 'shopify', 'ecommerce', 'e-commerce', 'woocommerce', 'salesforce', 'hubspot', 'sales', 'leads', 'mailchimp', 'campaign', 'affiliate', 'pipedrive', 'product catalog', 'online store', 'storefront'],
  },
  {
    slug: 'media-design', name: 'Media, art and design',
    upstream: ['art-and-culture', 'media', 'video', 'gaming', 'games', 'sports'],
    keywords: ['image', 'video', 'audio', 'music', 'design', 'figma', 'youtube', 'photo', 'game', 'gaming', 'artwork', 'artist', 'museum', 'drawing', '3d model', 'blender', 'canva', 'spotify', 'podcast', 'text-to-speech', 'tts', 'speech', 'animation', 'svg', 'movie', 'film', 'anime', 'diagram', 'tiktok', 'instagram', 'unity', 'minecraft'],
  },
  {
    slug: 'maps-travel', name: 'Maps, location and travel',
    upstream: ['location-services', 'travel-transportation', 'travel', 'maps', 'geospatial', 'boating'],
    keywords: ['maps', 'google maps', 'mapbox', 'openstreetmap', 'geocoding', 'geocode', 'geolocation', 'location', 'directions', 'travel', 'weather', 'forecast', 'flight', 'hotel', 'airbnb', 'places', 'gps', 'latitude', 'longitude', 'routing', 'transit', 'public transport', 'bus stop', 'railway', 'geospatial', 'gis'],
  },
  {
    slug: 'ai-ml', name: 'AI and machine learning',
    upstream: ['ai', 'ai-ml', 'translation-services'],
    keywords: ['machine learning', 'deep learning', 'neural network', 'hugging face', 'huggingface', 'openai', 'ollama', 'inference', 'fine-tuning', 'model training', 'image generation', 'generate images', 'text-to-image', 'stable diffusion', 'dall-e', 'replicate', 'vertex ai', 'bedrock', 'sagemaker', 'mlflow', 'wandb', 'ml models', 'multiple llms', 'llm providers', 'gemini api', 'multimodal'],
  },
  { slug: 'other', name: 'Other', upstream: [], keywords: [] },
];

/** The text a server says of itself, as ingest gives it to `categorize`. */
export interface CategoryInput {
  /** Upstream category names, as the upstream spells them (one per source at most). */
  readonly upstream: readonly string[];
  /** Upstream tags. */
  readonly tags: readonly string[];
  /** The canonical name; its namespace is not read. */
  readonly name: string;
  readonly title: string | null;
  readonly description: string;
  readonly tools: readonly { readonly name: string; readonly description: string }[];
}

/** Upstream values that say nothing about what a server does (rule 2). */
const CATCH_ALL = new Set(['other-tools-and-integrations', 'uncategorized', 'devops', 'tools', 'remote', 'mcp', 'api', 'automation', 'integration']);
const SCORE = { upstream: 6, name: 3, description: 2, tags: 2, tool: 1, manyTools: 2 } as const;
const THRESHOLD = 2;
/** At most this many categories per server. */
const MAX_CATEGORIES = 3;

const BY_UPSTREAM = new Map(TAXONOMY.flatMap((category) => category.upstream.map((name) => [name, category.slug] as const)));
const ORDER = new Map(TAXONOMY.map((category, index) => [category.slug, index]));
/** The categories with keywords, in taxonomy order. */
const RULE_SLUGS = TAXONOMY.filter((c) => c.keywords.length > 0).map((category) => category.slug);

/** A keyword as the words of `words()` it is made of, and what stands between them (a space, or the `/` of `ci/cd`). */
interface Keyword {
  readonly slug: string;
  /** The keyword's tokens (tokensOf): words and, between them, what separates them. */
  readonly tokens: readonly string[];
}

/** Letters and digits: what a word is made of, and what may not touch a keyword on either side. */
const WORD = /[\p{L}\p{N}]+/u;
/** What stands between two words; captured, so that splitting keeps it. */
const SEPARATOR = /([^\p{L}\p{N}]+)/u;
/** Most text is ASCII, where a word is `[a-z0-9]+` once lower-cased (see `asciiKeywordCategories`, and `words`). */
const ASCII = /^[\x00-\x7f]*$/;

/**
 * A word as the keywords' case-insensitive match compares it: what `/iu` does for the letters a
 * keyword is written in (lower case: `K` and the Kelvin sign are `k`, `ſ` is `s`).
 */
function folded(word: string): string {
  const lower = word.toLowerCase();
  return lower.includes('ſ') ? lower.replaceAll('ſ', 's') : lower;
}

/**
 * The words of `text` in order, each folded, with what stands between each and the next:
 * words at the even places, separators at the odd ones. One array for the whole text (a
 * categorized server reads a few dozen texts: name, description, tags, each tool).
 */
function tokensOf(text: string): string[] {
  const tokens = text.split(SEPARATOR);
  // A text that starts or ends with a separator splits into an empty word there.
  if (tokens[0] === '') tokens.splice(0, 2);
  if (tokens.at(-1) === '') tokens.splice(-2, 2);
  for (let i = 0; i < tokens.length; i += 2) tokens[i] = folded(tokens[i] as string);
  return tokens;
}

/** A keyword made of words, starting and ending with one: what the matching below assumes (and that it is already folded). */
const KEYWORD_SHAPE = new RegExp(`^${WORD.source}(?:${SEPARATOR.source}${WORD.source})*$`, 'u');

function append<V>(map: Map<string, V[]>, key: string, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/** A trie of keywords by character code: the categories of the keywords that end at a node. */
interface TrieNode {
  readonly next: Map<number, TrieNode>;
  readonly slugs: string[];
}

/** Every keyword, by its first word; and the one-word keywords, by their plural. */
const BY_FIRST_WORD = new Map<string, Keyword[]>();
const BY_PLURAL = new Map<string, string[]>();
/** The ASCII keywords (all of them today), whole, for ASCII text. */
const ASCII_KEYWORDS: TrieNode = { next: new Map(), slugs: [] };
for (const category of TAXONOMY) {
  for (const keyword of category.keywords) {
    const text = words(keyword);
    if (!KEYWORD_SHAPE.test(text) || folded(text) !== text) throw new Error(`taxonomy keyword "${keyword}" must be lower-case words`);
    const tokens = tokensOf(text);
    const first = tokens[0] as string;
    append(BY_FIRST_WORD, first, { slug: category.slug, tokens });
    if (tokens.length === 1) append(BY_PLURAL, `${first}s`, category.slug);
    if (!ASCII.test(text)) continue;
    let node = ASCII_KEYWORDS;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      let child = node.next.get(code);
      if (!child) node.next.set(code, (child = { next: new Map(), slugs: [] }));
      node = child;
    }
    node.slugs.push(category.slug);
  }
}

/**
 * The categories one of whose keywords is in `text` (rule 3): the keyword's words, whole and in
 * order, with the same separators between them; its last word may take a plural `s`.
 */
function keywordCategories(text: string): Set<string> {
  return ASCII.test(text) ? asciiKeywordCategories(text.toLowerCase()) : unicodeKeywordCategories(text);
}

/** A letter or digit of lower-cased ASCII text. */
const isAsciiWord = (code: number): boolean => (code >= 97 && code <= 122) || (code >= 48 && code <= 57);

/**
 * `keywordCategories` of lower-cased ASCII text, where a word is `[a-z0-9]+`, by walking the
 * keywords' trie from each word's start: no substring is made (categorizing a server reads a
 * few dozen texts, each tool's among them). A keyword found must end where a word does, or
 * before an `s` that does; its separators are in the trie, so they must be the text's.
 */
function asciiKeywordCategories(lower: string): Set<string> {
  const found = new Set<string>();
  for (let start = 0; start < lower.length; start += 1) {
    if (!isAsciiWord(lower.charCodeAt(start)) || (start > 0 && isAsciiWord(lower.charCodeAt(start - 1)))) continue;
    let node: TrieNode | undefined = ASCII_KEYWORDS;
    for (let at = start; at < lower.length; ) {
      node = node.next.get(lower.charCodeAt(at));
      if (node === undefined) break;
      at += 1;
      if (node.slugs.length === 0) continue;
      const after = at < lower.length ? lower.charCodeAt(at) : -1;
      const plural = after === 115 && (at + 1 === lower.length || !isAsciiWord(lower.charCodeAt(at + 1)));
      if (after === -1 || !isAsciiWord(after) || plural) for (const slug of node.slugs) found.add(slug);
    }
  }
  return found;
}

/** `keywordCategories` of any text, a word at a time. */
function unicodeKeywordCategories(text: string): Set<string> {
  const found = new Set<string>();
  const seen = tokensOf(text);
  // Tokens alike from `at` on (words and separators), the last word also with a plural `s`.
  const matchesAt = (keyword: Keyword, at: number): boolean => {
    const last = keyword.tokens.length - 1;
    if (at + last >= seen.length) return false;
    for (let i = 1; i <= last; i += 1) {
      const token = seen[at + i] as string;
      const wanted = keyword.tokens[i] as string;
      if (token !== wanted && !(i === last && token.length === wanted.length + 1 && token.endsWith('s') && token.startsWith(wanted))) return false;
    }
    return true;
  };
  for (let at = 0; at < seen.length; at += 2) {
    const word = seen[at] as string;
    const keywords = BY_FIRST_WORD.get(word);
    if (keywords) for (const keyword of keywords) if (!found.has(keyword.slug) && matchesAt(keyword, at)) found.add(keyword.slug);
    const plural = BY_PLURAL.get(word);
    if (plural) for (const slug of plural) found.add(slug);
  }
  return found;
}

/**
 * Categories of a server, best first (the first is its primary category); `other` when no rule
 * applies. The rules are in this file's header.
 */
export function categorize(input: CategoryInput): string[] {
  const ranked = [...categoryScores(input)].sort(([a, x], [b, y]) => y - x || (ORDER.get(a) ?? 0) - (ORDER.get(b) ?? 0));
  const best = ranked[0]?.[1] ?? 0;
  const kept = ranked.filter(([, score]) => score >= THRESHOLD && score * 2 >= best).slice(0, MAX_CATEGORIES).map(([slug]) => slug);
  return kept.length > 0 ? kept : ['other'];
}

/** Each category's score for a server (rules 1 to 3 of this file's header), to explain a result. */
export function categoryScores(input: CategoryInput): Map<string, number> {
  const meaningful = (values: readonly string[]): string[] => values.map((value) => value.trim().toLowerCase()).filter((value) => value !== '' && !CATCH_ALL.has(value));
  const upstream = meaningful(input.upstream);
  const scores = new Map<string, number>();
  const add = (slug: string, points: number): void => {
    scores.set(slug, (scores.get(slug) ?? 0) + points);
  };
  for (const slug of new Set(upstream.map((value) => BY_UPSTREAM.get(value)))) if (slug && slug !== 'other') add(slug, SCORE.upstream);
  const name = words(`${withoutNamespace(input.name)} ${input.title ?? ''}`);
  const description = words(input.description.replace(/\bhttps?:\/\/\S+/gi, ' '));
  const tags = words([...upstream, ...meaningful(input.tags)].join(', '));
  const tools = input.tools.map((tool) => keywordCategories(words(`${tool.name} ${tool.description}`)));
  const inName = keywordCategories(name);
  const inDescription = keywordCategories(description);
  const inTags = keywordCategories(tags);
  for (const slug of RULE_SLUGS) {
    if (inName.has(slug)) add(slug, SCORE.name);
    if (inDescription.has(slug)) add(slug, SCORE.description);
    if (inTags.has(slug)) add(slug, SCORE.tags);
    const matching = tools.filter((found) => found.has(slug)).length;
    if (matching > 0) add(slug, matching * 3 >= tools.length && tools.length > 1 ? SCORE.manyTools : SCORE.tool);
  }
  return scores;
}

/**
 * A name without its publisher: everything up to the last `/` (`io.github.someone/weather` →
 * `weather`), and the dashed namespace toolsdk's mirrors of official servers carry
 * (`@toolsdk-remote/ai-smithery-someone-weather` → `weather`).
 */
export function withoutNamespace(name: string): string {
  const last = name.slice(name.lastIndexOf('/') + 1);
  if (!name.startsWith('@toolsdk-remote/')) return last;
  return last.replace(/^(?:(?:io-github|ai-smithery)-[^-]+-|(?:com|io|ai|dev|app|co|net|org)-[^-]+-)/i, '');
}

/**
 * Text as words: separators become spaces (`server-google_maps` → `server google maps`), and the
 * camelCase words follow (`getWeather` → `get Weather`) beside the text as it was (`PayPal`).
 */
function words(text: string): string {
  const ascii = ASCII.test(text);
  const separated = ascii ? text.replace(/[_\-.]+(?=[A-Za-z])/g, ' ') : text.replace(/[_\-.]+(?=\p{L})/gu, ' ');
  const camel = ascii ? separated.replace(/([a-z])([A-Z])/g, '$1 $2') : separated.replace(/(\p{Ll})(\p{Lu})/gu, '$1 $2');
  return camel === separated ? separated : `${separated}\n${camel}`;
}
