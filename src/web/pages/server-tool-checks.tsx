/**
 * What the tool-definition scan found and how the tools changed, on a server page beside its
 * install section: a person deciding to install reads it there. Catalog text is shown as text
 * (JSX escapes it); excerpts already have their invisible characters written out.
 */
import type { Server, Tool, ToolChange, ToolFinding, TrustReport } from '../../types.js';
import { TOOL_RULES } from '../../catalog/tool-rules.js';
import { formatDateTime, plural } from '../components.js';

const SUMMARIES: ReadonlyMap<string, string> = new Map(TOOL_RULES.map((rule) => [rule.id, rule.summary]));

const FIELDS: Readonly<Record<string, string>> = { title: 'title', description: 'description', inputSchema: 'arguments', annotations: 'annotations' };

/** `details`: the server's tools by id, which tell whether their sources list their arguments. */
export function ToolChecksSection({ server, trust, details }: { readonly server: Server; readonly trust: TrustReport; readonly details: ReadonlyMap<string, Tool> }) {
  const definitions = trust.checks.find((c) => c.check === 'tool_definitions');
  const changed = trust.checks.find((c) => c.check === 'tools_changed');
  const findings = definitions?.findings ?? [];
  const changes = changed?.changes ?? [];
  const history = `/api/v1/servers/${encodeURIComponent(server.id)}/tools/history`;
  return (
    <section id="tool-checks" aria-labelledby="tool-checks-title" class="panel">
      <h2 id="tool-checks-title">What its tools tell an AI model</h2>
      {server.toolCount === null || server.tools.length === 0 ? (
        <p>
          {server.toolCount === null ? 'No source lists this server’s tools' : 'Its sources list no tools'}, so no tool description could be read for hidden
          instructions. Check them in your client after installing.
        </p>
      ) : (
        <>
          {findings.length === 0 ? (
            <p>
              Sextant read the {readParts(server.tools, details)} of its {plural(server.tools.length, 'tool')} and found no hidden instructions, no references to
              secret files, no invisible characters and no encoded payloads.
            </p>
          ) : (
            <FindingsList findings={findings} />
          )}
          {changes.length === 0 && server.toolsChangedAt === null ? (
            <p>Its tools have not changed since Sextant first saw them.</p>
          ) : (
            <ChangesList changes={changes} changedAt={server.toolsChangedAt} />
          )}
          {server.toolsFingerprint ? (
            <p class="muted">
              Tool set fingerprint (SHA-256): <code class="fingerprint">{server.toolsFingerprint}</code>. Every definition and change is in{' '}
              <a href={history}>its tool history as JSON</a>.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}

/** What the scan read of the tools: their arguments only where a source lists them. */
function readParts(tools: Server['tools'], details: ReadonlyMap<string, Tool>): string {
  const unlisted = tools.filter((t) => details.get(t.id)?.inputSchema === null).length;
  if (unlisted === 0) return 'names, descriptions and arguments';
  if (unlisted === tools.length) return 'names and descriptions (their source does not list their arguments)';
  return `names, descriptions and arguments (the arguments of ${unlisted} are not listed by their source)`;
}

function FindingsList({ findings }: { readonly findings: readonly ToolFinding[] }) {
  return (
    <>
      <p>
        <strong>Sextant found {plural(findings.length, 'thing')} in its tool descriptions that an AI model could read as instructions.</strong> Read them
        before you install; your model reads these texts whenever the server is connected.
      </p>
      <ul class="findings">
        {findings.map((f) => (
          <li>
            <span class={`outcome outcome-${f.severity === 'high' ? 'fail' : 'unknown'}`}>{f.severity === 'high' ? 'High' : 'Medium'}</span>{' '}
            Tool <code>{f.tool}</code>, {f.field}: {SUMMARIES.get(f.rule) ?? f.rule}
            <blockquote class="excerpt"><code>{f.excerpt}</code></blockquote>
          </li>
        ))}
      </ul>
    </>
  );
}

function ChangesList({ changes, changedAt }: { readonly changes: readonly ToolChange[]; readonly changedAt: string | null }) {
  return (
    <>
      <p>
        <strong>Its tools changed after Sextant first saw them{changedAt ? `, last on ${formatDateTime(changedAt)}` : ''}.</strong> If you approved them
        before, look at what changed:
      </p>
      <ul class="plain">
        {changes.map((c) => (
          <li>
            {formatDateTime(c.at)}: <code>{c.tool}</code>{' '}
            {c.kind === 'added' ? 'was added' : c.kind === 'removed' ? 'was removed' : `changed its ${c.fields.map((f) => FIELDS[f] ?? f).join(' and ')}`}.
          </li>
        ))}
      </ul>
    </>
  );
}
