/** The tools of a server page: each tool's description, annotations and input schema as a table of arguments. */
import type { Tool, ToolSummary } from '../../types.js';
import { prettyJson } from '../components.js';

interface Argument {
  readonly name: string;
  readonly type: string;
  readonly required: boolean;
  readonly description: string;
}

/** The top-level arguments of an input schema, as far as the schema says. */
export function argumentsOf(schema: Tool['inputSchema']): Argument[] {
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

export function ToolsSection({ tools, details }: { readonly tools: readonly ToolSummary[]; readonly details: ReadonlyMap<string, Tool> }) {
  return (
    <section id="tools" aria-labelledby="tools-title" class="panel">
      <h2 id="tools-title">Tools <span class="count">{tools.length}</span></h2>
      {tools.length === 0 ? <p>No tools are known for this server yet. The monitor lists them once it reaches a remote endpoint.</p> : null}
      {tools.map((summary) => {
        const tool = details.get(summary.id);
        const args = tool ? argumentsOf(tool.inputSchema) : [];
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
                {args.length === 0 ? (
                  <p class="muted">Takes no arguments.</p>
                ) : (
                  <table class="args">
                    <caption class="visually-hidden">Arguments of {summary.name}</caption>
                    <thead>
                      <tr><th scope="col">Argument</th><th scope="col">Type</th><th scope="col">Required</th><th scope="col">Description</th></tr>
                    </thead>
                    <tbody>
                      {args.map((arg) => (
                        <tr>
                          <td><code>{arg.name}</code></td>
                          <td>{arg.type}</td>
                          <td>{arg.required ? 'Yes' : 'No'}</td>
                          <td>{arg.description}</td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                )}
                <details>
                  <summary>Input schema (JSON)</summary>
                  <pre class="code" tabIndex={0}>{prettyJson(tool.inputSchema)}</pre>
                </details>
              </>
            ) : null}
          </article>
        );
      })}
    </section>
  );
}
