/** The run-long table of merge keys' first owners (src/ingest/key-owners.ts). */
import { expect } from 'chai';
import { hash52 } from '../../src/ingest/key-owners.js';
import { KeyOwners } from '../../src/ingest/key-owners.js';

describe('KeyOwners', () => {
  it('says a key is owned by another record only when a different record carried it first', () => {
    const owners = new KeyOwners();
    expect(owners.ownedByAnother(hash52('repo:github.com/a/b'), hash52('a'))).to.equal(false);
    expect(owners.ownedByAnother(hash52('repo:github.com/a/b'), hash52('a'))).to.equal(false);
    expect(owners.ownedByAnother(hash52('repo:github.com/a/b'), hash52('b'))).to.equal(true);
    expect(owners.ownedByAnother(0, 7)).to.equal(false);
    expect(owners.ownedByAnother(0, 8)).to.equal(true);
  });

  it('keeps every key as it grows past its first size', () => {
    const owners = new KeyOwners();
    const keys = Array.from({ length: 200_000 }, (_, i) => hash52(`pkg:npm:server-${i}`));
    for (const [i, key] of keys.entries()) expect(owners.ownedByAnother(key, i)).to.equal(false);
    for (const [i, key] of keys.entries()) {
      if (owners.ownedByAnother(key, i)) expect.fail(`key ${i} lost its owner`);
      if (!owners.ownedByAnother(key, i + 1)) expect.fail(`key ${i} forgot it had an owner`);
    }
  });
});
