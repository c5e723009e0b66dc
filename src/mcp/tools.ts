/**
 * The MCP tools: each mirrors one REST operation, calls the same service function, and takes
 * its input and output schemas from that operation in the contract. The catalog's tools read
 * through the read model as the REST handlers do; the assessment tools go through the assessment
 * service, under the same public limit and with the same notice.
 */
import type { Ajv2020 } from 'ajv/dist/2020.js';
import type { ErrorObject } from 'ajv';
import type { AssessmentService } from '../assessments/assessment-service.js';
import type { OpenApiDocument } from '../contract.js';
import type { operations } from '../../generated/openapi.js';
import type { PathOf, QueryOf } from '../contract.js';
import { Answer } from '../read/answer.js';
import type { ReadModel } from '../read/read-model.js';
import type { JsonSchemaObject, OperationId } from '../types.js';
import { operationSchemas } from './schemas.js';

export interface McpToolDefinition {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema: JsonSchemaObject;
  readonly annotations: ToolAnnotations & { readonly title: string };
}

/** What a tool does to the world, for a client deciding whether to ask its user first. */
interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint: boolean;
}

const READS_CATALOG: ToolAnnotations = { readOnlyHint: true, openWorldHint: false };

/** What the tools call: the same services as the REST handlers. */
export interface ToolServices {
  readonly read: ReadModel;
  readonly assessments: AssessmentService;
}

/** Who calls: the public limits count against this key, as on REST. */
export interface ToolCaller {
  readonly client: string;
}

export type ToolOutcome =
  | { readonly kind: 'result'; readonly answer: Answer<object> }
  | { readonly kind: 'invalid'; readonly errors: readonly string[] };

export interface McpTool {
  readonly definition: McpToolDefinition;
  /** What a model should try when the tool reports that something was not found. */
  readonly notFoundHint: string;
  call(services: ToolServices, args: unknown, caller: ToolCaller): Promise<ToolOutcome>;
}

/** An operation's JSON request body, or never. */
type JsonBody<O extends OperationId> = operations[O] extends { requestBody: { content: { 'application/json': infer B } } } ? B : never;
/** A tool's arguments: its operation's JSON body when it has one, else its query and path parameters. */
type Args<O extends OperationId> = [JsonBody<O>] extends [never] ? QueryOf<O> & PathOf<O> : JsonBody<O>;

interface ToolSpec<O extends OperationId> {
  readonly name: string;
  readonly operationId: O;
  readonly title: string;
  readonly description: string;
  readonly notFoundHint: string;
  /** Default: reads the catalog only. */
  readonly annotations?: ToolAnnotations;
  readonly run: (services: ToolServices, args: Args<O>, caller: ToolCaller) => Promise<Answer<object>>;
}

const FIND_SERVER = 'Call search_servers with the server\'s name or the task it should do, in plain words, then use an id from its results.';
const FIND_TOOL = 'Call search_tools with the task, in plain words, then use an id from its results.';
const ASSESSMENT_HINT = 'Call list_assessments with the business\'s domain for the ids of its assessments, or create_assessment to start one.';
/** How long get_assessment waits for a running assessment: a model cannot send `Prefer: wait`. */
const TOOL_WAIT_SECONDS = 10;

/** A tool made against the contract: its schemas are its operation's. */
type ToolMaker = (document: OpenApiDocument, ajv: Ajv2020) => McpTool;

function tool<O extends OperationId>(spec: ToolSpec<O>): ToolMaker {
  return (document, ajv) => {
    const schemas = operationSchemas(document, spec.operationId);
    const validate = ajv.compile<Args<O>>(schemas.inputSchema);
    return {
      definition: {
        name: spec.name,
        title: spec.title,
        description: spec.description,
        ...schemas,
        annotations: { title: spec.title, ...(spec.annotations ?? READS_CATALOG) },
      },
      notFoundHint: spec.notFoundHint,
      async call(services, args, caller) {
        if (!validate(args)) return { kind: 'invalid', errors: describe(validate.errors ?? []) };
        return { kind: 'result', answer: await spec.run(services, args, caller) };
      },
    };
  };
}

/** Every tool, in the order tools/list shows them. */
const TOOLS: readonly ToolMaker[] = [
  tool({
    name: 'search_servers',
    operationId: 'searchServers',
    title: 'Search MCP servers',
    description: 'Search the MCP server catalog by name, purpose, category or tool. q may be keywords or the task you have, described in plain words (up to 1,000 characters): results holding every meaningful word come first, then those holding some; each result\'s matchedTerms says which words it holds. Returns a page of server summaries with ids for get_server. Sort: relevance (default with q), a-z (default without), z-a, newest, oldest, tools (servers whose tools are not listed last), endpoints. A toolCount of null means no source or check has listed the server\'s tools: unknown, not zero. trust=clean keeps only servers whose tool definitions were scanned with no hidden instructions or other serious finding and have not changed since first seen. Test, staging, template, placeholder and copied records carry quality.flags and come after the others; quality=unflagged leaves them out, quality=flagged lists only them.',
    notFoundHint: FIND_SERVER,
    run: ({ read }, args) => read.searchServers(args),
  }),
  tool({
    name: 'search_tools',
    operationId: 'searchTools',
    title: 'Search MCP tools',
    description: 'Search the tools that catalogued MCP servers offer, optionally only those needing a given kind of authentication (none, api_key, oauth, unknown). q may be the task you have, described in plain words (up to 1,000 characters), e.g. "create an issue in my GitHub repository": tools holding every meaningful word come first, then those holding some; each result\'s matchedTerms says which words it holds. Returns tools with their input schemas and ids for get_tool. An inputSchema of null means the source names the tool but not its arguments: unknown, not "takes no arguments".',
    notFoundHint: FIND_TOOL,
    run: ({ read }, args) => read.searchTools(args),
  }),
  tool({
    name: 'get_server',
    operationId: 'getServer',
    title: 'Get an MCP server',
    description: 'One MCP server by id (from search_servers) or canonical name: description, packages, remote endpoints, tools (toolCount null when no source or check lists them: unknown, not zero), the tool set\'s SHA-256 fingerprint, how many serious findings the tool-definition scan made and when its tools last changed (get_trust lists the findings and changes; get_tool each tool\'s fingerprint and findings), versions and sources.',
    notFoundHint: FIND_SERVER,
    run: ({ read }, args) => read.getServer(args.id),
  }),
  tool({
    name: 'get_tool',
    operationId: 'getTool',
    title: 'Get an MCP tool',
    description: 'One tool by id (from search_tools or get_server): its description, input schema, annotations and the authentication its server needs. An inputSchema of null means its source names the tool but not its arguments: unknown, not "takes no arguments"; read them from the server once connected.',
    notFoundHint: FIND_TOOL,
    run: ({ read }, args) => read.getTool(args.id),
  }),
  tool({
    name: 'get_install',
    operationId: 'getInstall',
    title: 'Get install instructions',
    description: 'How to add a server (id from search_servers) to an MCP client: configuration file, the JSON to merge, CLI command and install link, and the inputs the user must supply. Without client, every supported client.',
    notFoundHint: FIND_SERVER,
    run: ({ read }, args) => read.getInstall(args.id, args.client),
  }),
  tool({
    name: 'get_trust',
    operationId: 'getTrust',
    title: 'Get trust evidence',
    description: 'Evidence about a server (id from search_servers): checks such as namespace ownership, repository, licence, pinned packages, HTTPS endpoints, declared secrets, tool annotations, hidden instructions or invisible text in its tool definitions (with the findings) and tools changed since first seen (with what changed and when), each pass/fail/unknown with its evidence, plus each source\'s record. Observations, not a verdict.',
    notFoundHint: FIND_SERVER,
    run: ({ read }, args) => read.getTrust(args.id),
  }),
  tool({
    name: 'get_status',
    operationId: 'getStatus',
    title: 'Get endpoint status',
    description: 'How a server\'s remote endpoints answered the status monitor: state (up, auth_required, not_mcp, down, blocked, unknown), latency, protocol version, tool count, recent history and uptime. Probes nothing itself.',
    notFoundHint: FIND_SERVER,
    run: ({ read }, args) => read.getStatus(args.id),
  }),
  tool({
    name: 'compare_servers',
    operationId: 'compareServers',
    title: 'Compare servers',
    description: 'Two to ten servers (ids from search_servers) side by side: transports, endpoints, tools (toolCount null: not listed by any source), authentication, licence, categories, trust outcomes, and the tools they share or alone offer.',
    notFoundHint: FIND_SERVER,
    run: ({ read }, args) => read.compareServers(args.ids),
  }),
  tool({
    name: 'list_categories',
    operationId: 'listCategories',
    title: 'List categories',
    description: 'The category taxonomy with the number of servers in each; pass a slug as category to search_servers.',
    notFoundHint: FIND_SERVER,
    run: ({ read }) => read.listCategories(),
  }),
  tool({
    name: 'create_assessment',
    operationId: 'createAssessment',
    title: 'Assess a business\'s web estate',
    description: 'Start observing the web estate of a business at its internet domain (e.g. "example-bakery.co.uk"): DNS, e-mail set-up, TLS certificate, website and registration. The observations are gathered in the background; call get_assessment with the returned id to read them. Observations only: never a score, rating, recommendation or credit decision, and the answer says so in its notice. Counts against the public limit of assessments per hour.',
    notFoundHint: ASSESSMENT_HINT,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: true },
    run: async ({ assessments }, args, caller) => Answer.of((await assessments.create(args, caller.client)).assessment),
  }),
  tool({
    name: 'get_assessment',
    operationId: 'getAssessment',
    title: 'Get an assessment',
    description: `One assessment by id (from create_assessment or list_assessments): its status (queued, running, complete, partial, failed) and its observations, each with a label, a one-sentence summary and the technical evidence, and the changes since the domain's previous assessment. While it runs, this waits up to ${TOOL_WAIT_SECONDS} seconds for it to finish. Observations only, never a verdict.`,
    notFoundHint: ASSESSMENT_HINT,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ assessments }, args) => Answer.of(await assessments.waitFor(args.id, TOOL_WAIT_SECONDS)),
  }),
  tool({
    name: 'list_assessments',
    operationId: 'listAssessments',
    title: 'List a domain\'s assessments',
    description: 'The assessments of one business domain, newest first, with their status and times: the domain\'s history. Read one with get_assessment; each carries what changed since the one before it.',
    notFoundHint: ASSESSMENT_HINT,
    annotations: { readOnlyHint: true, openWorldHint: false },
    run: async ({ assessments }, args) => Answer.of(await assessments.history(args.domain, args)),
  }),
];

export function createTools(document: OpenApiDocument, ajv: Ajv2020): McpTool[] {
  return TOOLS.map((make) => make(document, ajv));
}

function describe(errors: readonly ErrorObject[]): string[] {
  return errors.map((error) => {
    const where = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    const extra = typeof error.params.additionalProperty === 'string' ? ` (${error.params.additionalProperty})` : '';
    const allowed = Array.isArray(error.params.allowedValues) ? `: ${error.params.allowedValues.join(', ')}` : '';
    return `${where || 'arguments'} ${error.message ?? 'is invalid'}${extra}${allowed}`;
  });
}
