/** The TLS observation: the certificate the site presents on port 443, observed, not trusted. */
import { inspectTls } from '../../net/index.js';
import { observe } from './observation.js';
import type { Probe } from './types.js';

function summary(facts: Awaited<ReturnType<typeof inspectTls>>): string {
  const issuer = facts.issuerOrganization ?? facts.issuerCommonName ?? 'an unnamed issuer';
  const trust = facts.authorized ? 'it verifies' : `it does not verify (${facts.authorizationError ?? 'unknown reason'})`;
  const name = facts.hostnameMatches ? 'covers the name' : 'does not cover the name';
  const expiry = facts.daysToExpiry < 0 ? `expired ${-facts.daysToExpiry} day(s) ago` : `expires in ${facts.daysToExpiry} day(s)`;
  return `issued by ${issuer}${facts.selfSigned ? ' (self-signed)' : ''}, ${name}, ${expiry}; ${trust}`;
}

/** `tls_certificate`: validity dates, issuer, SAN match, days to expiry, self-signed, verification result. */
export const TLS_PROBE: Probe = {
  source: 'tls',
  names: ['tls_certificate'],
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
    return [observe(ctx, 'tls', 'tls_certificate', 'observed', facts, `${this.asked(ctx)}; ${summary(facts)}.`)];
  },
};
