/**
 * Tool fingerprints against RFC 8785's reference form: `canonicalize`, an implementation of the
 * RFC kept here only to check ours, over every tool the real data lists.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import canonicalize from 'canonicalize';
import { expect } from 'chai';
import { fingerprintOf, toolSetFingerprint } from '../../src/catalog/tool-fingerprint.js';
import { DATA_DIR, dataAvailable } from '../support/category-agreement.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');

describe('tool fingerprints', () => {
  it('is the SHA-256 of RFC 8785 canonical JSON for every tool of the real data', function () {
    if (!dataAvailable()) this.skip();
    const docker = JSON.parse(readFileSync(`${DATA_DIR}docker-mcp-catalog-servers.json`, 'utf8')) as Array<{ tools?: unknown[] }>;
    const toolsdk = JSON.parse(readFileSync(`${DATA_DIR}toolsdk-mcp-registry-servers.json`, 'utf8')) as Array<{ tools?: unknown[] }>;
    const tools = [...docker, ...toolsdk].flatMap((server) => server.tools ?? []);
    expect(tools.length).to.be.greaterThan(1000);
    const differing = tools.filter((tool) => fingerprintOf(tool) !== sha256(canonicalize(tool)!));
    expect(differing).to.deep.equal([]);
  });

  it('does not depend on key order, numbers as written or nesting order of keys', () => {
    const a = { name: 'get', inputSchema: { type: 'object', properties: { b: { maximum: 1.5e3, type: 'number' }, a: { type: 'string' } } }, title: null };
    const b = { title: null, inputSchema: { properties: { a: { type: 'string' }, b: { type: 'number', maximum: 1500 } }, type: 'object' }, name: 'get' };
    expect(fingerprintOf(a)).to.equal(fingerprintOf(b));
    expect(fingerprintOf(a)).to.equal(sha256('{"inputSchema":{"properties":{"a":{"type":"string"},"b":{"maximum":1500,"type":"number"}},"type":"object"},"name":"get","title":null}'));
  });

  it('fingerprints a lone surrogate (which RFC 8785 leaves undefined) as JSON.stringify writes it, instead of failing', () => {
    // A schema's text keeps what its source wrote; one broken character must not stop an ingest.
    expect(fingerprintOf({ description: 'note \ud83d' })).to.equal(sha256('{"description":"note \\ud83d"}'));
    expect(() => canonicalize({ description: 'note \ud83d' })).to.throw();
  });

  it('fingerprints a tool set as its names and fingerprints in name order, and no tools as unknown', () => {
    const set = [{ name: 'b', fingerprint: '2' }, { name: 'a', fingerprint: '1' }];
    expect(toolSetFingerprint(set)).to.equal(sha256('[{"fingerprint":"1","name":"a"},{"fingerprint":"2","name":"b"}]'));
    expect(toolSetFingerprint([])).to.equal(null);
  });
});
