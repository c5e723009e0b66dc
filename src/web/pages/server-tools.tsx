/** The tools of a server page: each tool's description, annotations and input schema as a table of arguments. */
import type { Tool, ToolSummary } from '../../types.js';
import { REMOTE_CAPS, cutNoteOf } from '../../mcp-client/caps.js';
import { boundedJson } from '../bounded-json.js';

/** Arguments listed in a tool's table; the rest are in its schema. */
const ARGUMENTS_SHOWN = 100;
/** Characters of one tool's schema shown, and of all of a page's schemas together: a page stays small whatever the catalog holds. */
const SCHEMA_CHARS = 16 * 1024;
const PAGE_SCHEMA_CHARS = 256 * 1024;

interface Argument {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

/** The top-level arguments of an input schema, as far as the schema says. */
export function argumentsOf(schema: NonNullable<Tool['inputSchema']>): Argument[] {
  const properties = typeof schema.properties === 'object' && schema.properties !== null ? schema.properties : {};
  const required = new Set(Array.isArray(schema.required) ? schema.required : []);
  return Object.entries(properties).map(([name, value]) => {
    const property: Record<string, unknown> = typeof value === 'object' && value !== null ? { ...value } : {};
    const type = Array.isArray(property.type) ? property.type.join(' or ') : typeof property.type === 'string' ? property.type : Array.isArray(property.enum) ? 'one of a list' : 'any';
    const description = typeof property.description === 'string' ? property.description : '';
    return { name, type, required: required.has(name), description };
  });
}

const HINTS: ReadonlyArray<readonly [keyof Tool['annotations'], string, string]> = [
  ['readOnlyHint', 'Read-only', ''],
  ['destructiveHint', 'Destructive', 'warn'],
  ['idempotentHint', 'Idempotent', ''],
  ['openWorldHint', 'Reaches outside', ''],
];

/** `toolCount`: the server's, null when no source or check lists its tools; `remote`: whether it has an endpoint the monitor checks. */
export function ToolsSection({ tools, toolCount, remote, details }: { readonly tools: readonly ToolSummary[]; readonly toolCount: number | null; readonly remote: boolean; readonly details: ReadonlyMap<string, Tool> }) {
  let room = PAGE_SCHEMA_CHARS;
  const schemaOf = (schema: NonNullable<Tool['inputSchema']>): { text: string; cut: boolean } | null => {
    if (room <= 0) return null;
    const shown = boundedJson(schema, { depth: REMOTE_CAPS.depth, chars: Math.min(SCHEMA_CHARS, room) });
    room -= shown.text.length;
    return shown;
  };
  return (
    <section id="tools" aria-labelledby="tools-title" class="panel">
      <h2 id="tools-title">Tools <span class="count">{toolCount === null ? 'not listed' : tools.length}</span></h2>
      {toolCount === null ? (
        <p>
          No source lists this server’s tools, and no check has listed them: they are not known, which is not the same as none.{' '}
          {remote ? 'The monitor lists them once it reaches the remote endpoint.' : 'Your client lists them once the server is installed.'}
        </p>
      ) : null}
      {toolCount === 0 ? <p>Its sources list no tools.</p> : null}
      {tools.map((summary) => {
        const tool = details.get(summary.id);
        const inputSchema = tool?.inputSchema ?? null;
        const args = inputSchema ? argumentsOf(inputSchema) : [];
        const cutNote = cutNoteOf(inputSchema);
        const schema = inputSchema ? schemaOf(inputSchema) : null;
        return (
          <article class="tool" id={`tool-${summary.name}`} aria-labelledby={`tool-title-${summary.name}`}>
            <h3 id={`tool-title-${summary.name}`}>
              <code>{summary.name}</code>
              {summary.title && summary.title !== summary.name ? <span class="tool-title"> {summary.title}</span> : null}
            </h3>
            <p>{summary.description || 'No description.'}</p>
            {tool ? (
              <>
                <ul class="facts" aria-label="Annotations">
                  {HINTS.filter(([key]) => tool.annotations[key] === true).map(([, label, tone]) => (
                    <li class={`tag ${tone}`}>{label}</li>
                  ))}
                </ul>
                {inputSchema === null ? (
                  <p class="muted">Arguments not listed by its source: it names this tool but not what the tool takes.</p>
                ) : cutNote !== null ? (
                  <p class="muted">Its arguments are not shown: {cutNote}</p>
                ) : args.length === 0 ? (
                  <p class="muted">Takes no arguments.</p>
                ) : (
                  <ArgumentsTable name={summary.name} args={args} />
                )}
                {args.length > ARGUMENTS_SHOWN ? <p class="muted">And {args.length - ARGUMENTS_SHOWN} more arguments, in its input schema.</p> : null}
                {inputSchema === null ? null : schema === null ? (
                  <p class="muted">Input schema: not shown on this page (it shows {PAGE_SCHEMA_CHARS / 1024} KiB of schemas at most); <a href={`/api/v1/tools/${encodeURIComponent(summary.id)}`}>see it in the API</a>.</p>
                ) : (
                  <details>
                    <summary>Input schema (JSON{schema.cut ? ', cut to fit this page' : ''})</summary>
                    <pre class="code" tabIndex={0}>{schema.text}</pre>
                  </details>
                )}
              </>
            ) : null}
          </article>
        );
      })}
    </section>
  );
}

/** A tool's top-level arguments, as a table. */
function ArgumentsTable({ name, args }: { readonly name: string; readonly args: readonly Argument[] }) {
  return (
    <table class="args">
      <caption class="visually-hidden">Arguments of {name}</caption>
      <thead>
        <tr><th scope="col">Argument</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr>
      </thead>
      <tbody>
        {args.slice(0, ARGUMENTS_SHOWN).map((arg) => (
          <tr>
            <td><code>{arg.name}</code></td>
            <td>{arg.type}</td>
            <td>{arg.required ? 'Yes' : 'No'}</td>
            <td>{arg.description}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
