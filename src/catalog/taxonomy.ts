/**
 * The fixed category taxonomy (DESIGN.md "Categories"): upstream categories and tags are
 * mapped onto these slugs at ingest, and keyword rules fill in for records that carry none.
 */

export interface CategoryDefinition {
  readonly slug: string;
  readonly name: string;
  /** Upstream category names and tags (lower-case) that map here. */
  readonly upstream: readonly string[];
  /** Whole words in a name, title or description that suggest this category. */
  readonly keywords: readonly string[];
}

export const TAXONOMY: readonly CategoryDefinition[] = [
  { slug: 'developer-tools', name: 'Developer tools', upstream: ['developer-tools', 'development', 'devtools', 'code', 'coding-agents', 'code-execution', 'command-line', 'tools', 'embedded-system'], keywords: ['code', 'coding', 'ide', 'lint', 'compiler', 'debugger', 'npm', 'sdk', 'terminal', 'shell', 'api testing'] },
  { slug: 'version-control', name: 'Version control', upstream: ['version-control', 'git'], keywords: ['git', 'github', 'gitlab', 'bitbucket', 'pull request', 'pull requests', 'repository', 'repositories'] },
  { slug: 'databases', name: 'Databases', upstream: ['databases', 'database', 'data-platforms'], keywords: ['database', 'databases', 'sql', 'postgres', 'postgresql', 'mysql', 'sqlite', 'mongodb', 'redis', 'supabase', 'bigquery', 'snowflake', 'neo4j'] },
  { slug: 'data-analytics', name: 'Data and analytics', upstream: ['data-science-tools', 'analytics', 'data-analytics', 'data-visualization', 'customer-data-platforms'], keywords: ['analytics', 'dashboard', 'dashboards', 'metrics', 'visualization', 'spreadsheet', 'spreadsheets', 'dataset', 'datasets'] },
  { slug: 'search', name: 'Search', upstream: ['search', 'news'], keywords: ['search', 'search engine', 'web search', 'serp'] },
  { slug: 'web-scraping', name: 'Web scraping and extraction', upstream: ['search-data-extraction', 'web-scraping', 'web'], keywords: ['scrape', 'scraping', 'crawl', 'crawler', 'crawling', 'extract', 'fetch'] },
  { slug: 'browser-automation', name: 'Browser automation', upstream: ['browser-automation'], keywords: ['browser', 'playwright', 'puppeteer', 'selenium', 'headless'] },
  { slug: 'cloud-platforms', name: 'Cloud platforms', upstream: ['cloud-platforms', 'cost-management'], keywords: ['aws', 'azure', 'gcp', 'google cloud', 'cloudflare', 'vercel', 'netlify', 'kubernetes', 'terraform', 'serverless'] },
  { slug: 'devops', name: 'DevOps and CI/CD', upstream: ['devops', 'automation'], keywords: ['devops', 'ci', 'cd', 'pipeline', 'pipelines', 'deploy', 'deployment', 'docker', 'container', 'containers', 'jenkins'] },
  { slug: 'monitoring', name: 'Monitoring and observability', upstream: ['monitoring', 'observability'], keywords: ['monitoring', 'observability', 'logs', 'logging', 'tracing', 'alerts', 'incident', 'incidents', 'sentry', 'grafana', 'datadog', 'prometheus'] },
  { slug: 'security', name: 'Security', upstream: ['security'], keywords: ['security', 'vulnerability', 'vulnerabilities', 'pentest', 'malware', 'threat', 'cve', 'secrets scanning'] },
  { slug: 'communication', name: 'Communication', upstream: ['communication', 'messaging', 'support-service-management'], keywords: ['slack', 'discord', 'email', 'e-mail', 'sms', 'telegram', 'whatsapp', 'chat', 'teams', 'messaging'] },
  { slug: 'productivity', name: 'Productivity', upstream: ['productivity', 'business'], keywords: ['notion', 'calendar', 'todo', 'task', 'tasks', 'project management', 'jira', 'linear', 'asana', 'trello', 'confluence', 'docs', 'notes'] },
  { slug: 'knowledge-memory', name: 'Knowledge and memory', upstream: ['knowledge-memory', 'knowledge', 'documentation'], keywords: ['memory', 'knowledge', 'knowledge graph', 'documentation', 'rag', 'embeddings', 'wiki', 'reasoning', 'thinking'] },
  { slug: 'file-systems', name: 'Files and storage', upstream: ['file-systems'], keywords: ['file', 'files', 'filesystem', 'directory', 'directories', 'storage', 's3', 'drive', 'dropbox'] },
  { slug: 'finance', name: 'Finance and payments', upstream: ['finance-fintech', 'finance', 'payments', 'fintech', 'blockchain'], keywords: ['payment', 'payments', 'stripe', 'invoice', 'invoices', 'finance', 'financial', 'stock', 'stocks', 'crypto', 'blockchain', 'trading', 'bank', 'banking'] },
  { slug: 'commerce-marketing', name: 'Commerce and marketing', upstream: ['marketing', 'crm', 'commerce', 'ecommerce'], keywords: ['marketing', 'crm', 'seo', 'ads', 'advertising', 'shopify', 'ecommerce', 'e-commerce', 'salesforce', 'hubspot', 'sales'] },
  { slug: 'media-design', name: 'Media, art and design', upstream: ['art-and-culture', 'media', 'video', 'gaming', 'games', 'sports'], keywords: ['image', 'images', 'video', 'audio', 'music', 'design', 'figma', 'youtube', 'photo', 'photos', 'game', 'games'] },
  { slug: 'maps-travel', name: 'Maps, location and travel', upstream: ['location-services', 'travel-transportation', 'travel', 'maps', 'geospatial', 'boating'], keywords: ['map', 'maps', 'location', 'geocoding', 'directions', 'travel', 'weather', 'flight', 'flights', 'places'] },
  { slug: 'ai-ml', name: 'AI and machine learning', upstream: ['ai', 'ai-ml', 'translation-services', 'aggregators'], keywords: ['llm', 'model', 'models', 'machine learning', 'hugging face', 'openai', 'anthropic', 'inference', 'agent', 'agents'] },
  { slug: 'other', name: 'Other', upstream: ['other-tools-and-integrations', 'uncategorized', 'healthcare', 'iot'], keywords: [] },
];

const BY_UPSTREAM = new Map(TAXONOMY.flatMap((category) => category.upstream.map((name) => [name, category.slug] as const)));
const KEYWORD_RULES = TAXONOMY.filter((c) => c.keywords.length > 0).map((category) => ({
  slug: category.slug,
  pattern: new RegExp(`\\b(${category.keywords.map((k) => k.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')})\\b`, 'gi'),
}));

/** At most this many categories per server. */
const MAX_CATEGORIES = 3;

/**
 * Categories of a server: its mapped upstream categories first, then the keyword rules that
 * match its text most often; `other` when nothing else applies. In taxonomy order.
 */
export function categorize(upstream: readonly string[], text: string): string[] {
  const chosen = new Set<string>();
  for (const name of upstream) {
    const slug = BY_UPSTREAM.get(name.trim().toLowerCase());
    if (slug && slug !== 'other') chosen.add(slug);
  }
  if (chosen.size < MAX_CATEGORIES) {
    const scored = KEYWORD_RULES.map((rule) => ({ slug: rule.slug, hits: text.match(rule.pattern)?.length ?? 0 }))
      .filter((rule) => rule.hits > 0 && !chosen.has(rule.slug))
      .sort((a, b) => b.hits - a.hits);
    const wanted = chosen.size === 0 ? MAX_CATEGORIES : 1;
    for (const rule of scored.slice(0, Math.min(wanted, MAX_CATEGORIES - chosen.size))) chosen.add(rule.slug);
  }
  if (chosen.size === 0) chosen.add('other');
  const order = TAXONOMY.map((c) => c.slug);
  return [...chosen].slice(0, MAX_CATEGORIES).sort((a, b) => order.indexOf(a) - order.indexOf(b));
}
