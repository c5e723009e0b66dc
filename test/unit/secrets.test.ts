import { expect } from 'chai';
import { REDACTED, isSecretName, scrubString, scrubUrl, scrubValue } from '../../src/catalog/secrets.js';

describe('secret scrubbing', () => {
  const shaped: Array<[string, string]> = [
    ['GitHub token', 'use ghp_abcdefghijklmnopqrstuvwxyz0123 here'],
    ['GitHub fine-grained token', 'github_pat_11ABCDEFG0123456789_abcdefghijklmnop'],
    ['OpenAI-style key', 'key sk-proj-abcdefghijklmnop1234'],
    ['Slack bot token', 'xoxb-1234567890-abcdefghij'],
    ['AWS access key id', 'AKIAIOSFODNN7EXAMPLE'],
    ['JWT', 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjMifQ.abcdefghijklmnop'],
    ['GitHub OAuth token', 'gho_abcdefghijklmnopqrstuvwxyz0123'],
    ['Stripe restricted key', 'rk_live_abcdefghijklmnop1234'],
    ['Stripe secret key', 'sk_test_abcdefghijklmnop1234'],
    ['AWS temporary key id', 'ASIAIOSFODNN7EXAMPLE'],
    ['Google API key', 'AIzaSyA-abcdefghijklmnopqrstuvwxyz01234'],
    ['GitLab token', 'glpat-abcdefghijklmnopqrst'],
    ['PEM private key', '-----BEGIN PRIVATE KEY-----\nMIIabc\n-----END PRIVATE KEY-----'],
  ];
  for (const [what, text] of shaped) {
    it(`removes a ${what} from free text`, () => {
      const out = scrubString(text);
      expect(out).to.contain(REDACTED);
      expect(out).not.to.match(/ghp_a|gho_a|github_pat_1|sk-proj|sk_test|rk_live|xoxb-1|AKIAIOS|ASIAIOS|eyJzdWIi|AIzaSy|glpat-a|MIIabc/);
    });
  }

  it('leaves ordinary text alone', () => {
    const text = 'Search GitHub issues; skip tasks; the AKIA prefix alone is fine; sk-short';
    expect(scrubString(text)).to.equal(text);
  });

  it('removes userinfo and credential query parameters from URLs, keeping the rest', () => {
    expect(scrubUrl('https://user:pw@mcp.example.com/mcp?token=abc&region=eu')).to.equal('https://mcp.example.com/mcp?region=eu');
    expect(scrubUrl('https://mcp.example.com/sse?api_key=1')).to.equal('https://mcp.example.com/sse');
    expect(scrubUrl('https://mcp.example.com/mcp')).to.equal('https://mcp.example.com/mcp');
    expect(scrubString('see https://a:b@x.example.com/p?key=1 now')).to.equal('see https://x.example.com/p now');
  });

  it('recognizes secret-like names', () => {
    for (const name of ['GITHUB_TOKEN', 'api_key', 'X-API-Key', 'Authorization', 'DB_PASSWORD', 'client_secret', 'Cookie', 'AWS_SECRET_ACCESS_KEY', 'GITLAB_PAT']) {
      expect(isSecretName(name), name).to.equal(true);
    }
    for (const name of ['WEATHER_UNITS', 'region', 'path', 'max_results', 'NODE_ENV']) expect(isSecretName(name), name).to.equal(false);
  });

  it('removes values of secret entries and secret-named keys in nested records', () => {
    const record = {
      env: [
        { name: 'API_KEY', default: 'plain-looking-value', isSecret: false },
        { name: 'MODE', value: 'fast', isSecret: true },
        { name: 'REGION', default: 'eu' },
      ],
      headers: { Authorization: 'Bearer abc', Accept: 'application/json' },
      secrets: [{ name: 'svc.api_key', env: 'SVC_API_KEY', example: 'patABC.def' }],
    };
    expect(scrubValue(record)).to.deep.equal({
      env: [
        { name: 'API_KEY', default: REDACTED, isSecret: false },
        { name: 'MODE', value: REDACTED, isSecret: true },
        { name: 'REGION', default: 'eu' },
      ],
      headers: { Authorization: REDACTED, Accept: 'application/json' },
      secrets: [{ name: 'svc.api_key', env: 'SVC_API_KEY', example: REDACTED }],
    });
  });
});

describe('scrubbing what was scrubbed', () => {
  const record = { name: 'svc', env: [{ name: 'API_KEY', default: 'plain-looking-value' }], url: 'https://u:p@x.example.com/mcp' };

  it('changes nothing more in a scrubbed value, alone or nested in a new value, and scrubs what is new', () => {
    const kept = scrubValue(record);
    expect(scrubValue(kept)).to.deep.equal(kept);
    const envelope = scrubValue({ jsonrpc: '2.0', id: 'ghp_abcdefghijklmnopqrstuvwxyz0123456789', result: kept });
    expect(envelope.result).to.deep.equal(kept);
    expect(envelope.id).to.equal(REDACTED);
  });

  it('leaves nothing of a secret in the JSON of a scrubbed value', () => {
    const page = { items: [{ description: 'see https://user:pw@example.com/x?token=abc and ghp_abcdefghijklmnopqrstuvwxyz0123' }] };
    const json = JSON.stringify(scrubValue(page));
    expect(json).not.to.match(/ghp_a|user:pw|token=abc/);
    // The JSON text scrubbed again as a string is as it was.
    expect(scrubValue({ text: json })).to.deep.equal({ text: scrubString(json) });
    expect(scrubString(json)).to.equal(json);
  });

  it('scrubs a scrubbed value again when a secret-named key now holds it', () => {
    const kept = scrubValue({ value: 'visible', description: 'd' });
    expect(scrubValue({ api_key: kept })).to.deep.equal({ api_key: { value: REDACTED, description: 'd' } });
  });
});

describe('placeholders', () => {
  it('keeps placeholders where secrets go, and only them', () => {
    const config = { env: { API_KEY: '<API_KEY>', TOKEN: '${input:token}', AUTH: 'Bearer <TOKEN>', PASSWORD: 'hunter2', GH: '<ghp_abcdefghijklmnopqrstuvwxyz0123>' }, headers: { Authorization: '${AUTH_HEADER}' } };
    expect(scrubValue(config)).to.deep.equal({ env: { API_KEY: '<API_KEY>', TOKEN: '${input:token}', AUTH: 'Bearer <TOKEN>', PASSWORD: REDACTED, GH: `<${REDACTED}>` }, headers: { Authorization: '${AUTH_HEADER}' } });
  });
});
