/** The official registry's rule for which version is the latest, and which versions may be published. */
import { expect } from 'chai';
import { compareVersions, latestOf, versionProblem } from '../../src/publish/latest-version.js';

const v = (version: string, publishedAt: string, status = 'active') => ({ version, publishedAt, status });

describe('the latest version (the official registry rule)', () => {
  it('compares semantic versions as numbers, a release above its prereleases', () => {
    expect(compareVersions(v('1.10.0', 'a'), v('1.9.0', 'b'))).to.equal(1);
    expect(compareVersions(v('1.0.0', 'a'), v('1.0.0-rc.1', 'b'))).to.equal(1);
    expect(compareVersions(v('1.0.0-alpha', 'b'), v('1.0.0-beta', 'a'))).to.equal(-1);
  });

  it('compares other versions by publication time, and puts a semantic version above them', () => {
    expect(compareVersions(v('2024-06', '2025-01-02'), v('2024-07', '2025-01-01'))).to.equal(1);
    expect(compareVersions(v('0.0.1', '2025-01-01'), v('v9', '2025-02-01'))).to.equal(1);
  });

  it('keeps the latest on a semantically higher version when a lower one is published later', () => {
    expect(latestOf([v('2.0.0', '2025-01-01'), v('1.5.0', '2025-02-01')])?.version).to.equal('2.0.0');
    expect(latestOf([v('2.0.0', '2025-01-01'), v('2.1.0', '2025-02-01')])?.version).to.equal('2.1.0');
  });

  it('never makes a deleted version the latest, and has none when all are deleted', () => {
    expect(latestOf([v('2.0.0', '2025-01-01', 'deleted'), v('1.0.0', '2025-02-01', 'deprecated')])?.version).to.equal('1.0.0');
    expect(latestOf([v('2.0.0', '2025-01-01', 'deleted')])).to.equal(null);
  });

  it('refuses ranges, wildcards and "latest" as versions, and takes exact ones', () => {
    for (const range of ['^1.2.3', '~1', '>=1', '<2', '1.x', '1.*', '*', '1.2.X', '1 || 2', 'latest']) expect(versionProblem(range), range).to.be.a('string');
    for (const exact of ['1.2.3', '1.0.0-rc.1', '2024.06.01', 'v1', '1.0.0+build.5', 'x1']) expect(versionProblem(exact), exact).to.equal(null);
  });
});
