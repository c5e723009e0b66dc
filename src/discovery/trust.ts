/**
 * Trust evidence (DESIGN.md "Trust"): checks computed from the catalog record and its sources,
 * each with its evidence; a count of outcomes, never a verdict.
 */
import type { CatalogServer } from '../catalog/catalog-entry.js';
import type { components } from '../../generated/openapi.js';
import type { EndpointCheck } from '../store/index.js';
import { checksOf } from './status.js';
import type { Server, SourceRef, Tool, ToolChange } from '../types.js';

type Schemas = components['schemas'];
export type TrustCheck = Schemas['TrustCheck'];
export type TrustReport = Schemas['TrustReport'];
export type TrustSummary = Schemas['TrustSummary'];
export type UpstreamRecord = Schemas['UpstreamRecord'];
/** What the checks read of each tool: its annotations and what the tool-definition scan found. */
export type TrustTool = Pick<Tool, 'annotations' | 'findings'>;

type Outcome = TrustCheck['outcome'];

/** What the checks read of a server: its record, and the source each of its records came from. */
export type TrustSubject = Pick<CatalogServer, 'id' | 'name' | 'repositoryUrl' | 'license' | 'packages' | 'remotes' | 'toolCount' | 'toolsChangedAt'> & {
  readonly sources: readonly Pick<SourceRef, 'source'>[];
};
type Evaluation = Pick<TrustCheck, 'check' | 'outcome' | 'evidence' | 'findings' | 'changes'> & { readonly source?: string };

/** Looks like a credential by name: what should have been declared secret. */
const SECRET_LIKE = /(token|secret|passw|api[-_]?key|apikey|authorization|cookie|credential|private[-_]?key)/i;
const EXACT_VERSION = /^v?\d+(\.\d+){1,3}([-+][0-9A-Za-z.-]+)?$/;

/** `changes`: the tool changes the history holds (ToolHistory), listed under `tools_changed`. */
export function trustReport(server: CatalogServer, tools: readonly TrustTool[], upstream: readonly UpstreamRecord[], checks: readonly EndpointCheck[], now: string, changes?: readonly ToolChange[]): TrustReport {
  const observedAt = upstream.map((u) => u.ingestedAt).sort().at(-1) ?? now;
  const latestCheck = [...checks].sort((a, b) => b.checkedAt.localeCompare(a.checkedAt))[0]?.checkedAt;
  const results: TrustCheck[] = evaluations(server, tools, checks, changes).map((e) => ({
    ...e,
    source: e.source ?? 'catalog',
    observedAt: e.check === 'endpoint_health' ? (latestCheck ?? now) : observedAt,
  }));
  return { serverId: server.id, serverName: server.name, checks: results, summary: summarize(results), upstream: [...upstream] };
}

/** The outcome counts of the checks alone (a trust report's summary). */
export function trustSummary(server: TrustSubject, tools: readonly TrustTool[], checks: readonly EndpointCheck[]): TrustSummary {
  return summarize(evaluations(server, tools, checks));
}

export function summarize(checks: readonly Pick<TrustCheck, 'outcome'>[]): TrustSummary {
  const count = (outcome: Outcome): number => checks.filter((c) => c.outcome === outcome).length;
  return { pass: count('pass'), fail: count('fail'), unknown: count('unknown') };
}

function evaluations(server: TrustSubject, tools: readonly TrustTool[], checks: readonly EndpointCheck[], changes?: readonly ToolChange[]): Evaluation[] {
  return [
    namespaceCheck(server), repositoryCheck(server), licenseCheck(server), pinnedCheck(server), httpsCheck(server), secretsCheck(server), annotationsCheck(tools),
    sourcesCheck(server), healthCheck(server, checks), toolDefinitionsCheck(tools), toolsChangedCheck(server, changes),
  ];
}

/** `io.github.acme/x` is owned by GitHub user acme; `com.acme/x` by the domain acme.com. */
function namespaceCheck(server: TrustSubject): Evaluation {
  const check = 'namespace_matches_owner';
  const [namespace] = server.name.split('/');
  if (!namespace || !server.name.includes('/') || !namespace.includes('.')) {
    return { check, outcome: 'unknown', evidence: `"${server.name}" has no reverse-DNS namespace to compare.` };
  }
  const labels = namespace.toLowerCase().split('.');
  const githubOwner = labels[0] === 'io' && labels[1] === 'github' ? labels[2] : undefined;
  const repoOwner = server.repositoryUrl ? /^https?:\/\/(www\.)?github\.com\/([^/]+)/i.exec(server.repositoryUrl)?.[2]?.toLowerCase() : undefined;
  if (githubOwner) {
    if (!repoOwner) return { check, outcome: 'unknown', evidence: `Namespace names GitHub owner "${githubOwner}" but there is no GitHub repository to compare.` };
    return repoOwner === githubOwner
      ? { check, outcome: 'pass', evidence: `Namespace owner "${githubOwner}" owns the repository ${server.repositoryUrl}.` }
      : { check, outcome: 'fail', evidence: `Namespace owner "${githubOwner}" differs from repository owner "${repoOwner}".` };
  }
  const domain = [...labels].reverse().join('.');
  const hosts = server.remotes.map((r) => r.host.toLowerCase());
  const matching = hosts.find((host) => host === domain || host.endsWith(`.${domain}`));
  if (matching) return { check, outcome: 'pass', evidence: `Namespace domain ${domain} serves the endpoint ${matching}.` };
  if (repoOwner && domain.split('.').includes(repoOwner)) return { check, outcome: 'pass', evidence: `Namespace domain ${domain} matches repository owner "${repoOwner}".` };
  if (hosts.length > 0) return { check, outcome: 'fail', evidence: `Namespace domain ${domain} serves none of the endpoints (${hosts.join(', ')}).` };
  return { check, outcome: 'unknown', evidence: `Namespace domain ${domain} has no endpoint or GitHub repository to compare.` };
}

function repositoryCheck(server: TrustSubject): Evaluation {
  return server.repositoryUrl
    ? { check: 'repository_present', outcome: 'pass', evidence: `Source repository: ${server.repositoryUrl}.` }
    : { check: 'repository_present', outcome: 'fail', evidence: 'No source repository is listed by any source.' };
}

function licenseCheck(server: TrustSubject): Evaluation {
  if (server.license) return { check: 'license_present', outcome: 'pass', evidence: `Licence: ${server.license}.`, source: 'toolsdk' };
  const listsLicences = server.sources.some((s) => s.source === 'toolsdk');
  return listsLicences
    ? { check: 'license_present', outcome: 'fail', evidence: 'The source that records licences lists none.', source: 'toolsdk' }
    : { check: 'license_present', outcome: 'unknown', evidence: 'None of this server\'s sources records a licence.' };
}

function pinnedCheck(server: TrustSubject): Evaluation {
  const check = 'packages_pinned';
  if (server.packages.length === 0) return { check, outcome: 'unknown', evidence: 'The server has no packages.' };
  const loose = server.packages.filter((p) => !p.version || !EXACT_VERSION.test(p.version));
  return loose.length === 0
    ? { check, outcome: 'pass', evidence: `Every package names an exact version (${server.packages.map((p) => `${p.identifier}@${p.version}`).join(', ')}).` }
    : { check, outcome: 'fail', evidence: `Not pinned to an exact version: ${loose.map((p) => `${p.identifier}${p.version ? `@${p.version}` : ''}`).join(', ')}.` };
}

function httpsCheck(server: TrustSubject): Evaluation {
  const check = 'remotes_use_https';
  if (server.remotes.length === 0) return { check, outcome: 'unknown', evidence: 'The server has no remote endpoints.' };
  const plain = server.remotes.filter((r) => !r.url.startsWith('https://'));
  return plain.length === 0
    ? { check, outcome: 'pass', evidence: `All ${server.remotes.length} remote endpoints use HTTPS.` }
    : { check, outcome: 'fail', evidence: `Not HTTPS: ${plain.map((r) => r.url).join(', ')}.` };
}

function secretsCheck(server: TrustSubject): Evaluation {
  const check = 'secrets_declared';
  const inputs = [
    ...server.packages.flatMap((p) => [...p.environmentVariables, ...p.arguments.map((a) => ({ name: a.name ?? '', isSecret: a.isSecret }))]),
    ...server.remotes.flatMap((r) => r.headers),
  ];
  const secretLike = inputs.filter((i) => SECRET_LIKE.test(i.name));
  if (secretLike.length === 0) return { check, outcome: 'pass', evidence: 'No input is named like a credential.' };
  const undeclared = secretLike.filter((i) => !i.isSecret);
  return undeclared.length === 0
    ? { check, outcome: 'pass', evidence: `All ${secretLike.length} credential-like inputs are declared secret.` }
    : { check, outcome: 'fail', evidence: `Named like credentials but not declared secret: ${undeclared.map((i) => i.name).join(', ')}.` };
}

function annotationsCheck(tools: readonly TrustTool[]): Evaluation {
  const check = 'tool_annotations';
  if (tools.length === 0) return { check, outcome: 'unknown', evidence: 'No tools are listed for this server.' };
  const readOnly = tools.filter((t) => t.annotations.readOnlyHint === true).length;
  const destructive = tools.filter((t) => t.annotations.destructiveHint === true).length;
  const bare = tools.filter((t) => t.annotations.readOnlyHint === null && t.annotations.destructiveHint === null);
  const counts = `${readOnly} read-only, ${destructive} destructive`;
  return bare.length === 0
    ? { check, outcome: 'pass', evidence: `All ${tools.length} tools say whether they are read-only or destructive (${counts}).` }
    : { check, outcome: 'fail', evidence: `${bare.length} of ${tools.length} tools declare neither read-only nor destructive (${counts}).` };
}

function sourcesCheck(server: TrustSubject): Evaluation {
  const names = server.sources.map((s) => s.source).filter((source) => source !== 'monitor');
  return names.length > 1
    ? { check: 'multiple_sources', outcome: 'pass', evidence: `Listed by ${names.length} sources: ${names.join(', ')}.` }
    : { check: 'multiple_sources', outcome: 'fail', evidence: `Listed by one source: ${names.join(', ')}.` };
}

/** From the monitor's latest check of each endpoint: reachable (up, or asking for credentials) or not. */
function healthCheck(server: TrustSubject, checks: readonly EndpointCheck[]): Evaluation {
  const check = 'endpoint_health';
  if (server.remotes.length === 0) return { check, outcome: 'unknown', evidence: 'The server has no remote endpoints to check.', source: 'monitor' };
  const latest = server.remotes.flatMap((remote) => {
    const found = checksOf(checks, remote.url).find((c) => c.state !== 'unknown');
    return found ? [found] : [];
  });
  if (latest.length === 0) return { check, outcome: 'unknown', evidence: 'The endpoint monitor has not checked this server\'s endpoints.', source: 'monitor' };
  const states = latest.map((c) => `${c.url}: ${c.state}`).join('; ');
  const healthy = latest.every((c) => c.state === 'up' || c.state === 'auth_required');
  return { check, outcome: healthy ? 'pass' : 'fail', evidence: `Last checks: ${states}.`, source: 'monitor' };
}

/** What the tool-definition scan (src/catalog/tool-rules.ts) found of medium or high severity. */
function toolDefinitionsCheck(tools: readonly TrustTool[]): Evaluation {
  const check = 'tool_definitions';
  if (tools.length === 0) return { check, outcome: 'unknown', evidence: 'No tools are listed for this server, so none was scanned.' };
  const all = tools.flatMap((t) => t.findings);
  const serious = all.filter((f) => f.severity !== 'low');
  const low = all.length - serious.length;
  const signals = low > 0 ? ` (${low} low-severity ${low === 1 ? 'signal' : 'signals'}, listed on the tools)` : '';
  if (serious.length === 0) return { check, outcome: 'pass', evidence: `The scan of ${tools.length} tool definitions found nothing of medium or high severity${signals}.` };
  const named = [...new Set(serious.map((f) => `${f.rule} in ${f.tool}`))].slice(0, 5).join('; ');
  const inTools = new Set(serious.map((f) => f.tool)).size;
  return { check, outcome: 'fail', evidence: `${serious.length} findings of medium or high severity in ${inTools} of ${tools.length} tools: ${named}${signals}.`, findings: serious };
}

/** Whether a tool was added, removed or changed after the catalog first saw the server's tools. */
function toolsChangedCheck(server: TrustSubject, changes: readonly ToolChange[] | undefined): Evaluation {
  const check = 'tools_changed';
  if (server.toolCount === null && server.toolsChangedAt === null) return { check, outcome: 'unknown', evidence: 'No source or check lists this server\'s tools, so there is nothing to compare.' };
  if (server.toolCount === 0 && server.toolsChangedAt === null) return { check, outcome: 'unknown', evidence: 'Its sources list no tools, so there is nothing to compare.' };
  if (server.toolsChangedAt === null) return { check, outcome: 'pass', evidence: 'No tool was added, removed or changed since the catalog first saw this server\'s tools.' };
  const listed = changes === undefined ? '' : ` ${changes.length} ${changes.length === 1 ? 'change' : 'changes'}: ${changes.slice(-5).map((c) => `${c.tool} ${c.kind}`).join(', ')}.`;
  return { check, outcome: 'fail', evidence: `Its tools changed after the catalog first saw them, last on ${server.toolsChangedAt}.${listed}`, ...(changes === undefined ? {} : { changes: [...changes] }) };
}
