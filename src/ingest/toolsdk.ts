/** The toolsdk registry export: package files joined with the index's category and tools. */
import type { EnvironmentVariable, Package } from '../types.js';
import { isSecretName } from '../catalog/secrets.js';
import { asArray, asObject, httpUrl, isObject, remote, text } from './upstream-fields.js';
import { IngestError, listedTools, type IngestRecord, type UpstreamTool } from './upstream.js';

const RUNTIMES = {
  node: { registryType: 'npm', runtimeHint: 'npx' },
  python: { registryType: 'pypi', runtimeHint: 'uvx' },
  go: { registryType: 'go', runtimeHint: null },
  java: { registryType: 'maven', runtimeHint: null },
  docker: { registryType: 'oci', runtimeHint: 'docker' },
} as const satisfies Record<string, Pick<Package, 'registryType' | 'runtimeHint'>>;

/** Whether a parsed document is a toolsdk export. */
export function isToolsdkDocument(doc: unknown): boolean {
  const first: unknown = Array.isArray(doc) ? doc[0] : undefined;
  return isObject(first) && isObject(first._toolsdk);
}

/** `offset`: the place of `doc[0]` in the whole document, for messages (a streamed document comes a record at a time). */
export function readToolsdk(doc: unknown[], file: string, offset = 0): IngestRecord[] {
  return doc.map((item, at) => {
    const index = offset + at;
    if (!isObject(item)) throw new IngestError(file, `#${index}`, 'record is not an object');
    const raw = item;
    const meta = asObject(raw._toolsdk);
    const packageName = text(raw.packageName);
    const key = text(meta.key) ?? packageName;
    const label = `#${index} (${key ?? '?'})`;
    if (!packageName || !key) throw new IngestError(file, label, 'packageName and _toolsdk.key must be non-empty strings');
    if (typeof raw.description !== 'string') throw new IngestError(file, label, 'description must be a string');
    const remotes = asArray(raw.remotes).flatMap((item) => remote(asObject(item).url, asObject(item).type));
    const variables = Object.entries(asObject(raw.env)).map(([name, spec]) => readVariable(name, spec));
    const runtime = RUNTIMES[String(raw.runtime) as keyof typeof RUNTIMES] ?? null;
    const remoteOnly = packageName.startsWith('@toolsdk-remote/');
    return {
      raw,
      server: {
        source: 'toolsdk',
        key,
        name: packageName,
        title: text(raw.name),
        description: text(raw.description) ?? '',
        version: null,
        versions: [],
        repositoryUrl: httpUrl(raw.url),
        repositorySubfolder: null,
        websiteUrl: null,
        license: text(raw.license),
        publishedAt: null,
        updatedAt: null,
        packages: runtime && !remoteOnly
          ? [{ ...runtime, identifier: packageName, version: null, transport: 'stdio', environmentVariables: variables, arguments: [] }]
          : [],
        remotes,
        tools: toolsOf(raw.tools),
        upstreamCategories: [text(meta.category)].filter((c): c is string => c !== null),
        oauth: asArray(raw.remotes).some((remote) => /oauth/i.test(String(asObject(asObject(remote).auth).type))),
        declaresSecrets: false,
      },
    };
  });
}

function readVariable(name: string, spec: unknown): EnvironmentVariable {
  const raw = asObject(spec);
  return { name, description: text(raw.description) ?? '', isRequired: raw.required === true, isSecret: isSecretName(name) };
}

/**
 * The tools a record lists; null for an empty list too: toolsdk's validator writes one both when
 * it could not list a server's tools and when it listed none (`validated: false` either way).
 */
function toolsOf(value: unknown): UpstreamTool[] | null {
  const tools = listedTools(value, readTool);
  return tools !== null && tools.length > 0 ? tools : null;
}

/** A tool as toolsdk lists it: a name and a description, never its arguments (so they are unknown). */
function readTool(item: unknown): UpstreamTool[] {
  const raw = asObject(item);
  const name = text(raw.name);
  if (!name) return [];
  return [{
    name,
    title: null,
    description: text(raw.description) ?? '',
    inputSchema: null,
    annotations: { title: null, readOnlyHint: null, destructiveHint: null, idempotentHint: null, openWorldHint: null },
  }];
}
