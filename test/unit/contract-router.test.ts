/**
 * Our adapter over openapi-backend (src/http/contract-router.ts) routes and validates as the
 * library's own `handleRequest` does: the same operation, the same coerced parameters, the same
 * failures. If openapi-backend changes how it routes or validates, this fails.
 */
import { expect } from 'chai';
import { OpenAPIBackend, type Context, type Document } from 'openapi-backend';
import { createAjv, loadContract } from '../../src/contract.js';
import { AppError } from '../../src/errors.js';
import { createContractRouter, type RouterRequest } from '../../src/http/contract-router.js';

type Outcome =
  | { kind: 'routed'; operationId: string; path: unknown; query: unknown }
  | { kind: 'not_found' | 'method_not_allowed' }
  | { kind: 'invalid'; locations: string[] };

class Backend extends OpenAPIBackend {
  override validateDefinition(): Document {
    return this.document;
  }
}

/** What openapi-backend's own handleRequest makes of a request. */
async function libraryOutcomes(): Promise<(request: RouterRequest) => Promise<Outcome>> {
  const document = loadContract();
  const api = new Backend({
    definition: structuredClone(document) as unknown as Document,
    strict: true,
    coerceTypes: true,
    validate: (c: Context) => c.operation.operationId !== 'postMcp',
    customizeAjv: (_original, ajvOpts) => createAjv({ ...ajvOpts }),
  });
  await api.init();
  const routed = (c: Context): Outcome => ({ kind: 'routed', operationId: c.operation.operationId ?? '', path: c.request.params, query: c.validation?.coerced?.query ?? c.request.query });
  api.register({
    notFound: (): Outcome => ({ kind: 'not_found' }),
    methodNotAllowed: (): Outcome => ({ kind: 'method_not_allowed' }),
    validationFail: (c: Context): Outcome => ({ kind: 'invalid', locations: (c.validation.errors ?? []).map((e) => e.instancePath || String(e.params.additionalProperty ?? e.params.missingProperty ?? '')) }),
  });
  for (const operation of api.router.getOperations()) api.register(operation.operationId ?? '', routed);
  return async (request) => api.handleRequest({ ...request, headers: { ...request.headers() } }) as Promise<Outcome>;
}

const get = (path: string, query = ''): RouterRequest => ({ method: 'GET', path, query, headers: () => ({}), body: undefined });
const post = (path: string, body: unknown): RouterRequest => ({ method: 'POST', path, query: '', headers: () => ({ 'content-type': 'application/json' }), body });

const REQUESTS: RouterRequest[] = [
  get('/api/v1/servers/search', 'q=github&limit=3&offset=2'),
  get('/api/v1/servers/search', 'limit=500'),
  get('/api/v1/servers/search', 'limit=5&bogus=1'),
  get('/api/v1/servers/search', 'sort=sideways'),
  get('/api/v1/servers/search/'),
  get('/api/v1/servers/io.github.github~github-mcp-server'),
  get(`/api/v1/servers/${encodeURIComponent('io.github.github/github-mcp-server')}`),
  get('/api/v1/servers/compare', 'ids=a,b'),
  get('/api/v1/servers/a~b/install', 'client=vscode'),
  get('/api/v1/servers/a~b/install', 'client=emacs'),
  get('/api/v1/tools/search', 'authentication=none&sort=a-z'),
  get('/api/v1/tools/io.github.acme~x:tool'),
  get('/api/search', 'q=notion'),
  get('/api/servers/api.githubcopilot.com'),
  get('/api/v1/categories'),
  get('/api/v1/nothing-here'),
  get('/mcp'),
  { method: 'DELETE', path: '/api/v1/servers/search', query: '', headers: () => ({}), body: undefined },
  post('/api/v1/assessments', { domain: 'example.com' }),
  post('/api/v1/assessments', { domain: 'example.com', extra: 1 }),
  post('/api/v1/proxy/connect', { serverId: 'a~b' }),
  post('/mcp', '{"jsonrpc":"2.0"}'),
];

describe('contract router (our adapter over openapi-backend)', function () {
  this.timeout(30_000);
  it('routes and validates every request as openapi-backend handleRequest does', async () => {
    const library = await libraryOutcomes();
    const router = await createContractRouter(loadContract(), { unvalidated: ['postMcp'] });
    for (const request of REQUESTS) {
      const expected = await library(request);
      let actual: Outcome;
      try {
        const routed = router.route(request);
        actual = { kind: 'routed', operationId: routed.operationId, path: routed.path, query: routed.query };
      } catch (err) {
        if (!(err instanceof AppError)) throw err;
        actual = err.code === 'validation_failed'
          ? { kind: 'invalid', locations: [] }
          : { kind: err.code === 'method_not_allowed' ? 'method_not_allowed' : 'not_found' };
      }
      const label = `${request.method} ${request.path}?${request.query}`;
      if (expected.kind === 'invalid') expect(actual.kind, label).to.equal('invalid');
      else expect(JSON.parse(JSON.stringify(actual)), label).to.deep.equal(JSON.parse(JSON.stringify(expected)));
    }
  });

  it('gives the same outcome to a repeated request', async () => {
    const router = await createContractRouter(loadContract(), { unvalidated: ['postMcp'] });
    for (const request of REQUESTS) {
      const outcome = () => {
        try {
          return router.route(request);
        } catch (err) {
          return err instanceof AppError ? { code: err.code, errors: err.errors } : err;
        }
      };
      expect(JSON.stringify(outcome())).to.equal(JSON.stringify(outcome()));
    }
  });

  it('names each invalid parameter where the request carries it', async () => {
    const router = await createContractRouter(loadContract());
    const locations = (request: RouterRequest) => {
      try {
        router.route(request);
        return [];
      } catch (err) {
        return err instanceof AppError ? err.errors.map((e) => e.location) : [];
      }
    };
    expect(locations(get('/api/v1/servers/search', 'limit=500'))).to.deep.equal(['query.limit']);
    expect(locations(get('/api/v1/servers/search', 'bogus=1'))).to.deep.equal(['query.bogus']);
    expect(locations(post('/api/v1/assessments', { domain: 'example.com', extra: 1 }))).to.deep.equal(['body.extra']);
  });
});
