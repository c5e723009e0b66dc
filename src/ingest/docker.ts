/** The Docker MCP catalog (`servers/<name>/server.yaml` converted to JSON, plus its tools.json). */
import type { EnvironmentVariable, JsonSchemaObject, Package } from '../types.js';
import { isSecretName } from '../catalog/secrets.js';
import { annotations, asArray, asObject, httpUrl, isObject, objectSchema, remote, text } from './upstream-fields.js';
import { IngestError, listedTools, type IngestRecord, type UpstreamTool } from './upstream.js';

/** Whether a parsed document is a Docker catalog export (an array of server.yaml objects). */
export function isDockerDocument(doc: unknown): boolean {
  const first: unknown = Array.isArray(doc) ? doc[0] : undefined;
  return isObject(first) && isObject(first.about) && typeof first.type === 'string';
}

/** `offset`: the place of `doc[0]` in the whole document, for messages (a streamed document comes a record at a time). */
export function readDocker(doc: unknown[], file: string, offset = 0): IngestRecord[] {
  return doc.map((item, at) => {
    const index = offset + at;
    if (!isObject(item)) throw new IngestError(file, `#${index}`, 'record is not an object');
    const raw = item;
    const name = text(raw.name);
    const label = `#${index} (${name ?? '?'})`;
    if (!name) throw new IngestError(file, label, 'name must be a non-empty string');
    if (!['server', 'remote', 'poci'].includes(String(raw.type))) throw new IngestError(file, label, 'type must be server, remote or poci');
    if (!isObject(raw.about)) throw new IngestError(file, label, 'about must be an object');
    const about = asObject(raw.about);
    const meta = asObject(raw.meta);
    const source = asObject(raw.source);
    const config = asObject(raw.config);
    const secrets = asArray(config.secrets);
    return {
      raw,
      server: {
        source: 'docker',
        key: name,
        name: `mcp/${name.toLowerCase()}`,
        title: text(about.title),
        description: text(about.description) ?? '',
        version: null,
        versions: [],
        repositoryUrl: httpUrl(source.project),
        repositorySubfolder: text(source.directory),
        websiteUrl: null,
        license: null,
        publishedAt: null,
        updatedAt: null,
        packages: readImage(raw, secrets, asArray(config.env)),
        remotes: remote(asObject(raw.remote).url, asObject(raw.remote).transport_type),
        tools: toolsOf(raw),
        upstreamCategories: [text(meta.category), ...asArray(meta.tags).map(text)].filter((c): c is string => c !== null),
        oauth: asArray(raw.oauth).length > 0,
        declaresSecrets: secrets.length > 0,
      },
    };
  });
}

function readImage(raw: Record<string, unknown>, secrets: unknown[], env: unknown[]): Package[] {
  const image = text(raw.image);
  if (!image) return [];
  const [identifier, tag] = splitTag(image);
  const variables: EnvironmentVariable[] = [
    ...secrets.flatMap((secret) => {
      const name = text(asObject(secret).env);
      return name ? [{ name, description: `Secret ${text(asObject(secret).name) ?? name}`, isRequired: true, isSecret: true }] : [];
    }),
    ...env.flatMap((entry) => {
      const name = text(asObject(entry).name);
      return name ? [{ name, description: '', isRequired: false, isSecret: isSecretName(name) }] : [];
    }),
  ];
  return [{ registryType: 'oci', identifier, version: tag, runtimeHint: 'docker', transport: 'stdio', environmentVariables: variables, arguments: [] }];
}

/** `mcp/sqlite:1.2` → [`mcp/sqlite`, `1.2`]; a digest or no tag gives null. */
function splitTag(image: string): [string, string | null] {
  const at = image.indexOf('@');
  if (at > 0) return [image.slice(0, at), image.slice(at + 1)];
  const colon = image.lastIndexOf(':');
  return colon > image.lastIndexOf('/') ? [image.slice(0, colon), image.slice(colon + 1)] : [image, null];
}

/**
 * The tools of `tools.json`; null without one, and for the empty one of a server that lists its
 * tools at run time: Docker gives every remote server (and any with `dynamic.tools`) `[]`.
 */
function toolsOf(raw: Record<string, unknown>): UpstreamTool[] | null {
  const tools = listedTools(raw.tools, readTool);
  const discovered = raw.type === 'remote' || asObject(raw.dynamic).tools === true;
  return tools !== null && tools.length === 0 && discovered ? null : tools;
}

function readTool(item: unknown): UpstreamTool[] {
  const raw = asObject(item);
  const name = text(raw.name);
  if (!name) return [];
  const notes = asObject(raw.annotations);
  return [{
    name,
    title: text(notes.title),
    description: text(raw.description) ?? '',
    inputSchema: schemaOf(raw),
    annotations: annotations(notes),
  }];
}

/**
 * A tool's arguments: its `inputSchema`, or its `arguments` list (empty: it takes none); null
 * when it has neither, as many of Docker's tools have, some plainly taking an id or a query.
 */
function schemaOf(raw: Record<string, unknown>): JsonSchemaObject | null {
  if (raw.inputSchema !== undefined) return objectSchema(raw.inputSchema);
  return Array.isArray(raw.arguments) ? argumentsSchema(raw.arguments) : null;
}

/** Docker's `arguments[] {name, type, desc, optional}` as a JSON Schema. */
function argumentsSchema(args: unknown[]): JsonSchemaObject {
  const properties: Record<string, unknown> = {};
  const required: string[] = [];
  for (const arg of args.map(asObject)) {
    const name = text(arg.name);
    if (!name) continue;
    const type = text(arg.type) ?? 'string';
    properties[name] = { type: type === 'array' ? 'array' : type, description: text(arg.desc) ?? '' };
    if (arg.optional !== true) required.push(name);
  }
  return { type: 'object', properties, ...(required.length > 0 ? { required } : {}) };
}
