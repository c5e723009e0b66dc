/**
 * `dnssec`: whether the domain's zone is signed, read from the DS records its parent zone
 * publishes for it (RFC 4034 §5). Only the configured resolver is asked; its AD flag says whether
 * it validated the answer itself. No DS record (NODATA) is the parent's answer: `not_found`.
 */
import { observe } from './observation.js';
import type { Probe } from './types.js';

/** DNSSEC algorithm numbers (IANA "DNS Security Algorithm Numbers"), the ones in use. */
const ALGORITHMS: Readonly<Record<number, string>> = {
  5: 'RSASHA1',
  7: 'RSASHA1-NSEC3-SHA1',
  8: 'RSASHA256',
  10: 'RSASHA512',
  13: 'ECDSAP256SHA256',
  14: 'ECDSAP384SHA384',
  15: 'ED25519',
  16: 'ED448',
};

/** DS digest types (IANA "Delegation Signer (DS) Resource Record Digest Algorithms"). */
const DIGEST_TYPES: Readonly<Record<number, string>> = { 1: 'SHA-1', 2: 'SHA-256', 4: 'SHA-384' };

/** `dnssec`: the DS records of the domain, each with its key tag, algorithm and digest type. */
export const DNSSEC_PROBE: Probe = {
  source: 'dns',
  names: ['dnssec'],
  asked: (ctx) => `Asked the DNS resolver for the DS records of ${ctx.domain} (DNSSEC)`,
  async run(ctx) {
    const answer = await ctx.dns.resolveDs(ctx.domain);
    const ds = answer.records.map((r) => ({
      keyTag: r.keyTag,
      algorithm: r.algorithm,
      algorithmName: ALGORITHMS[r.algorithm] ?? null,
      digestType: r.digestType,
      digestTypeName: DIGEST_TYPES[r.digestType] ?? null,
    }));
    const said = ds.map((r) => `key tag ${r.keyTag}, algorithm ${r.algorithm}${r.algorithmName === null ? '' : ` (${r.algorithmName})`}, digest type ${r.digestType}${r.digestTypeName === null ? '' : ` (${r.digestTypeName})`}`);
    const validated = answer.authenticated ? 'the resolver marked the answer as validated (AD)' : 'the resolver did not mark the answer as validated (no AD flag)';
    return [observe(ctx, 'dns', 'dnssec', 'observed', { signed: true, ds, validatedByResolver: answer.authenticated }, `${this.asked(ctx)}; ${said.join('; ')}; ${validated}.`)];
  },
};
