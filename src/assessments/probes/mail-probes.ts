/**
 * Mail policy observations beyond the DNS basics: MTA-STS (RFC 8461), SMTP TLS reporting
 * (RFC 8460) and the mail provider the MX hosts belong to. DNS through the injected resolver; the
 * MTA-STS policy file through the guarded client only.
 */
import type { NetResponse } from '../../net/index.js';
import { dnsFailure } from './dns-answers.js';
import { recordTags, txtRecords } from './dns-probes.js';
import { MAIL_PROVIDERS } from './mail-providers.js';
import { failure, observe } from './observation.js';
import { bodyText } from './shared.js';
import type { Observation, Probe, ProbeContext } from './types.js';

/** https://mta-sts.<domain>/.well-known/mta-sts.txt (RFC 8461 §3.3); the port from `ctx.ports` in tests. */
function policyUrl(ctx: ProbeContext): string {
  const url = new URL(`https://mta-sts.${ctx.domain}/`);
  url.port = String(ctx.ports?.https ?? 443);
  url.pathname = '/.well-known/mta-sts.txt';
  return url.href;
}

/** The policy file's fields (RFC 8461 §3.2): `key: value` lines, `mx` repeated; null for a field that is absent. */
function parsePolicy(text: string): { version: string | null; mode: string | null; mx: string[]; maxAge: number | null } {
  const fields = text.split(/\r?\n/).flatMap((line) => {
    const match = /^\s*([a-z_]+)\s*:\s*(.*?)\s*$/i.exec(line);
    return match === null ? [] : [{ key: (match[1] ?? '').toLowerCase(), value: match[2] ?? '' }];
  });
  const first = (key: string): string | null => fields.find((f) => f.key === key)?.value ?? null;
  const maxAge = first('max_age');
  return {
    version: first('version'),
    mode: first('mode')?.toLowerCase() ?? null,
    mx: fields.filter((f) => f.key === 'mx').map((f) => f.value.toLowerCase()),
    maxAge: maxAge !== null && /^\d{1,10}$/.test(maxAge) ? Number(maxAge) : null,
  };
}

function policyAsked(ctx: ProbeContext): string {
  return `then asked for ${policyUrl(ctx)} (GET, certificate verified, redirects not followed)`;
}

/** What the policy fetch gave: the policy when it answered 200, else only its status. */
function policyObserved(ctx: ProbeContext, base: { record: string; id: string | null }, asked: string, res: NetResponse): Observation {
  const value = { ...base, policyUrl: policyUrl(ctx), policyStatus: res.status };
  if (res.status !== 200) {
    const unread = { ...value, version: null, mode: null, mx: null, maxAge: null };
    return observe(ctx, 'dns', 'mta_sts', 'observed', unread, `${asked}; it answered ${res.status}, so there is no policy to read.`);
  }
  const policy = parsePolicy(bodyText(res));
  const said = `version ${policy.version ?? '(none)'}, mode ${policy.mode ?? '(none)'}, mx ${policy.mx.join(', ') || '(none)'}, max_age ${policy.maxAge ?? '(none)'}`;
  return observe(ctx, 'dns', 'mta_sts', 'observed', { ...value, ...policy }, `${asked}; it answered 200: ${said}.`);
}

/**
 * `mta_sts`: the `_mta-sts` TXT record and, when there is one, the policy file it announces. A
 * policy host that cannot be reached is `error` or `timeout` naming it, with the record's id kept.
 */
const mtaSts: Probe = {
  source: 'dns',
  names: ['mta_sts'],
  asked: (ctx) => `Asked the DNS resolver for the TXT records of _mta-sts.${ctx.domain}, ${policyAsked(ctx)}`,
  async run(ctx, shared) {
    const dnsAsked = `Asked the DNS resolver for the TXT records of _mta-sts.${ctx.domain}`;
    let records: string[];
    try {
      records = await txtRecords(ctx, `_mta-sts.${ctx.domain}`, /^v=STSv1\s*(;|$)/i);
    } catch (err) {
      return [await dnsFailure(ctx, shared, 'mta_sts', err, dnsAsked)];
    }
    const [record] = records;
    if (record === undefined) return [observe(ctx, 'dns', 'mta_sts', 'not_found', null, `${dnsAsked}; none starts with v=STSv1.`)];
    if (records.length > 1) return [observe(ctx, 'dns', 'mta_sts', 'error', { records }, `${dnsAsked}; multiple MTA-STS records (${records.length}), which RFC 8461 treats as none.`)];
    const base = { record, id: recordTags(record).get('id') ?? null };
    const asked = `${dnsAsked}; "${record}"; ${policyAsked(ctx)}`;
    try {
      // Half the time limit, so that a silent policy host is said by name before the probe's limit.
      const res = await ctx.net.request({ method: 'GET', url: policyUrl(ctx), headers: { accept: 'text/plain' }, timeoutMs: Math.floor(ctx.timeoutMs / 2), maxResponseBytes: 64 * 1024, redirect: 'manual' });
      return [policyObserved(ctx, base, asked, res)];
    } catch (err) {
      const failed = failure(ctx, 'dns', 'mta_sts', err, asked, `mta-sts.${ctx.domain}`);
      return [{ ...failed, value: { ...base, policyUrl: policyUrl(ctx), policyStatus: null, version: null, mode: null, mx: null, maxAge: null } }];
    }
  },
};

/** `tls_rpt`: the `_smtp._tls` TXT record and the addresses TLS failure reports go to (RFC 8460 §3). */
const tlsRpt: Probe = {
  source: 'dns',
  names: ['tls_rpt'],
  asked: (ctx) => `Asked the DNS resolver for the TXT records of _smtp._tls.${ctx.domain}`,
  async run(ctx) {
    const asked = this.asked(ctx);
    const records = await txtRecords(ctx, `_smtp._tls.${ctx.domain}`, /^v=TLSRPTv1\s*(;|$)/i);
    const [record] = records;
    if (record === undefined) return [observe(ctx, 'dns', 'tls_rpt', 'not_found', null, `${asked}; none starts with v=TLSRPTv1.`)];
    if (records.length > 1) return [observe(ctx, 'dns', 'tls_rpt', 'error', { records }, `${asked}; multiple TLS-RPT records (${records.length}), which RFC 8460 treats as none.`)];
    const rua = recordTags(record).get('rua')?.split(',').map((uri) => uri.trim()).filter((uri) => uri !== '') ?? [];
    return [observe(ctx, 'dns', 'tls_rpt', 'observed', { record, rua }, `${asked}; "${record}".`)];
  },
};

/** The provider a mail host belongs to, by `MAIL_PROVIDERS`: the host itself or a name under it. */
function providerOf(host: string): string | null {
  const matches = (suffix: string): boolean => host === suffix || host.endsWith(`.${suffix}`);
  return MAIL_PROVIDERS.find((provider) => provider.hosts.some(matches))?.name ?? null;
}

/**
 * `mail_provider`: the providers recognised from the MX hosts (the MX lookup shared with
 * `mx_records`), each with the first host (by priority) that matched, and the hosts not recognised.
 */
const mailProvider: Probe = {
  source: 'dns',
  names: ['mail_provider'],
  asked: (ctx) => `Asked the DNS resolver for the MX records of ${ctx.domain} and compared their hosts with a list of known mail providers`,
  async run(ctx, shared) {
    const asked = this.asked(ctx);
    const records = [...(await shared.mx())].sort((a, b) => a.priority - b.priority);
    const hosts = [...new Set(records.map((r) => r.exchange.toLowerCase().replace(/\.$/, '')))];
    if (hosts.length === 0) return [observe(ctx, 'dns', 'mail_provider', 'not_found', null, `${asked}; there are no MX records.`)];
    if (hosts.length === 1 && hosts[0] === '') {
      const value = { nullMx: true, providers: [], unrecognised: [] };
      return [observe(ctx, 'dns', 'mail_provider', 'observed', value, `${asked}; a null MX (0 .): the domain accepts no mail, so no provider handles it.`)];
    }
    const providers: Array<{ name: string; matchedHost: string }> = [];
    const unrecognised: string[] = [];
    for (const host of hosts) {
      const name = providerOf(host);
      if (name === null) unrecognised.push(host);
      else if (!providers.some((p) => p.name === name)) providers.push({ name, matchedHost: host });
    }
    const said = [...providers.map((p) => `${p.matchedHost} is ${p.name}`), ...(unrecognised.length === 0 ? [] : [`not recognised: ${unrecognised.join(', ')}`])].join('; ');
    return [observe(ctx, 'dns', 'mail_provider', 'observed', { nullMx: false, providers, unrecognised }, `${asked}; ${said}.`)];
  },
};

/** The mail policy probes, each run under its own time limit. */
export const MAIL_PROBES: readonly Probe[] = [mtaSts, tlsRpt, mailProvider];
