/** The TLS observations: the certificate the site presents on port 443, observed, not trusted, and when it expires. */
import { inspectTls, type TlsFacts } from '../../net/index.js';
import { expiredAgo } from './expiry-days.js';
import { observe } from './observation.js';
import type { Observation, Probe, ProbeContext } from './types.js';

function summary(facts: TlsFacts): string {
  const issuer = facts.issuerOrganization ?? facts.issuerCommonName ?? 'an unnamed issuer';
  const trust = facts.authorized ? 'it verifies' : `it does not verify (${facts.authorizationError ?? 'unknown reason'})`;
  const name = facts.hostnameMatches ? 'covers the name' : 'does not cover the name';
  const expiry = facts.daysToExpiry < 0 ? `expired ${expiredAgo(facts.daysToExpiry)}` : `expires in ${facts.daysToExpiry} day(s)`;
  return `issued by ${issuer}${facts.selfSigned ? ' (self-signed)' : ''}, ${name}, ${expiry}; ${trust}`;
}

/** `certificate_expiry`: the certificate's notAfter date, with the same day count `tls_certificate` gives. */
function expiry(ctx: ProbeContext, asked: string, facts: TlsFacts): Observation {
  const expired = facts.daysToExpiry < 0;
  const value = { notAfter: facts.validTo, daysToExpiry: facts.daysToExpiry, expired };
  const when = expired ? expiredAgo(facts.daysToExpiry) : `${facts.daysToExpiry} day(s) from now`;
  return observe(ctx, 'tls', 'certificate_expiry', 'observed', value, `${asked}; the certificate is valid until ${facts.validTo} (notAfter), ${when}.`);
}

/**
 * `tls_certificate`: validity dates, issuer, SAN match, days to expiry, self-signed, verification
 * result; `certificate_expiry`: its expiry alone. One handshake serves both.
 */
export const TLS_PROBE: Probe = {
  source: 'tls',
  names: ['tls_certificate', 'certificate_expiry'],
  needsAddresses: true,
  asked: (ctx) => `Asked ${ctx.domain} port ${ctx.ports?.https ?? 443} for its TLS certificate (SNI ${ctx.domain})`,
  async run(ctx) {
    const facts = await inspectTls({
      host: ctx.domain,
      port: ctx.ports?.https ?? 443,
      allowPrivate: ctx.allowPrivate,
      resolve: ctx.resolveHost,
      timeoutMs: ctx.timeoutMs,
      ca: ctx.tlsCa,
      now: ctx.now,
    });
    const asked = this.asked(ctx);
    return [observe(ctx, 'tls', 'tls_certificate', 'observed', facts, `${asked}; ${summary(facts)}.`), expiry(ctx, asked, facts)];
  },
};
