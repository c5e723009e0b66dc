/**
 * The MCP tools' input and output schemas declare their dialect (`$schema`, JSON Schema 2020-12)
 * and compile under strict validators: the official SDK client with a strict 2020-12 Ajv, Ajv2020
 * in strict mode, and a client that picks its validator from `$schema` as many do.
 */
import { expect } from 'chai';
import AjvModule, { type AnySchema, type ValidateFunction } from 'ajv';
import { Ajv2019 } from 'ajv/dist/2019.js';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import { contractFetch, startHarness, type Harness } from '../support/harness.js';

const addFormats = addFormatsModule.default;
const DIALECT_2020 = 'https://json-schema.org/draft/2020-12/schema';

type Dialect = 'draft-07' | '2019-09' | '2020-12';

/** What a client honouring `$schema` does: the validator of the declared dialect, draft-07 when none is declared. */
function dialectOf(schema: Record<string, unknown>): Dialect {
  const declared = typeof schema.$schema === 'string' ? schema.$schema : '';
  if (declared.includes('2020-12')) return '2020-12';
  if (declared.includes('2019-09')) return '2019-09';
  return 'draft-07';
}

function strictValidator(dialect: Dialect): AjvModule.default {
  const options = { strict: true, allErrors: true };
  const ajv = dialect === '2020-12' ? new Ajv2020(options) : dialect === '2019-09' ? new Ajv2019(options) : new AjvModule.default(options);
  addFormats(ajv);
  return ajv;
}

function compileHonouringDialect(schema: Record<string, unknown>): ValidateFunction {
  return strictValidator(dialectOf(schema)).compile(schema as AnySchema);
}

describe('MCP tool schemas declare their dialect', () => {
  let h: Harness;
  let client: Client;
  let tools: Awaited<ReturnType<Client['listTools']>>['tools'];
  before(async () => {
    h = await startHarness();
    // The SDK client validates every structuredContent against the tool's outputSchema; here with a strict 2020-12 Ajv.
    client = new Client({ name: 'sextant-tests', version: '1.0.0' }, { jsonSchemaValidator: new AjvJsonSchemaValidator(strictValidator('2020-12')) });
    const checked = contractFetch(h.baseUrl);
    await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', h.baseUrl), { fetch: (url, init) => checked(url, init) }));
    tools = (await client.listTools()).tools;
  });
  after(async () => {
    await client.close();
    await h.close();
  });

  it('declares JSON Schema 2020-12 in $schema on every input and output schema', () => {
    expect(tools).to.have.length(12);
    for (const tool of tools) {
      expect(tool.inputSchema.$schema, `${tool.name} input`).to.equal(DIALECT_2020);
      expect(tool.outputSchema?.$schema, `${tool.name} output`).to.equal(DIALECT_2020);
    }
  });

  it('compiles every input and output schema with Ajv2020 in strict mode', () => {
    for (const tool of tools) {
      for (const [which, schema] of [['input', tool.inputSchema], ['output', tool.outputSchema]] as const) {
        expect(() => strictValidator('2020-12').compile(schema as AnySchema), `${tool.name} ${which}`).not.to.throw();
      }
    }
  });

  it('lets a client that honours $schema pick the 2020-12 validator, where the draft-07 default would throw in strict mode', () => {
    const search = tools.find((t) => t.name === 'search_servers')!;
    expect(dialectOf(search.outputSchema!)).to.equal('2020-12');
    expect(() => compileHonouringDialect(search.outputSchema!)).not.to.throw();
    const { $schema: _declared, ...undeclared } = search.outputSchema!;
    expect(() => compileHonouringDialect(undeclared), 'without $schema a draft-07 client meets unevaluatedProperties').to.throw(/unevaluatedProperties/);
  });

  const calls: Array<[string, Record<string, unknown>]> = [
    ['search_servers', { q: 'github', limit: 3 }],
    ['search_tools', { q: 'issue' }],
    ['get_server', { id: 'io.github.github~github-mcp-server' }],
    ['get_tool', { id: 'io.github.github~github-mcp-server:create_issue' }],
    ['get_install', { id: 'com.notion~mcp', client: 'vscode' }],
    ['get_trust', { id: 'com.notion~mcp' }],
    ['get_status', { id: 'com.notion~mcp' }],
    ['compare_servers', { ids: ['io.github.github~github-mcp-server', 'com.notion~mcp'] }],
    ['list_categories', {}],
  ];
  for (const [name, args] of calls) {
    it(`returns ${name} structuredContent that the SDK client (strict 2020-12) and a dialect-honouring client both accept`, async () => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, JSON.stringify(result.content)).to.equal(false);
      const tool = tools.find((t) => t.name === name)!;
      const validate = compileHonouringDialect(tool.outputSchema!);
      expect(validate(result.structuredContent), JSON.stringify(validate.errors)).to.equal(true);
      const validateInput = compileHonouringDialect(tool.inputSchema);
      expect(validateInput(args), JSON.stringify(validateInput.errors)).to.equal(true);
    });
  }
});
