/**
 * The quality rules agree with a person on hand-labelled real records
 * (test/fixtures/quality/labelled.json, agreement as test/support/quality-agreement.ts defines
 * it). Skipped, with the reason, where ../shared/data is absent (a bare clone).
 */
import { expect } from 'chai';
import { dataAvailable } from '../support/category-agreement.js';
import { disagreements, measureQuality, type QualityAgreement } from '../support/quality-agreement.js';

describe(`quality flags on hand-labelled real records${dataAvailable() ? '' : ' (skipped: ../shared/data not found next to the checkout)'}`, function () {
  this.timeout(60_000);
  let agreement: QualityAgreement;
  before(function () {
    if (!dataAvailable()) this.skip();
    agreement = measureQuality();
  });

  it('labels at least 100 records from all three sources, flagged and not, each label saying where it came from', () => {
    expect(agreement.servers.length).to.be.at.least(100);
    expect(new Set(agreement.servers.map((s) => s.labelled.file)).size).to.equal(3);
    expect(agreement.servers.filter((s) => s.labelled.flags.length > 0).length).to.be.at.least(40);
    expect(agreement.servers.filter((s) => s.labelled.flags.length === 0).length, 'hard negatives').to.be.at.least(60);
    for (const s of agreement.servers) expect(s.labelled.labelFrom, s.labelled.key).to.have.length.greaterThan(10);
  });

  it('agrees with a person on at least 95% of the servers (every flag they raise, none they would reject)', () => {
    const misses = disagreements(agreement);
    expect(agreement.rate, `agreement ${(agreement.rate * 100).toFixed(1)}%; disagreements:\n  ${misses.join('\n  ')}`).to.be.at.least(0.95);
    expect(agreement.heldOut, 'on the held-out random sample').to.be.at.least(0.95);
  });

  it('flags no server the labeller calls real', () => {
    const wrong = agreement.servers.filter((s) => s.labelled.flags.length === 0 && s.raised.length > 0);
    expect(wrong.map((s) => `${s.labelled.key}: [${s.raised.join(', ')}]`)).to.deep.equal([]);
  });

  it('agrees on every labelled tool name', () => {
    expect(agreement.toolRate, disagreements(agreement).join('\n')).to.equal(1);
  });
});
