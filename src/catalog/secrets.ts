/**
 * Credential scrubbing, in one place (DESIGN.md "Trust"): applied to upstream records at
 * ingest, so no secret value is ever stored where a route can return it, and again to
 * everything that leaves the service, by the read model's encoder (src/read/answer.ts).
 */

export const REDACTED = '[redacted]';

/** Names of keys, variables and headers that carry credentials. */
const SECRET_NAME = /(token|secret|passw(or)?d|passwd|api[-_.]?key|apikey|auth(orization)?$|cookie|credential|private[-_.]?key|access[-_.]?key|session[-_.]?key|client[-_.]?secret|bearer|pat$)/i;

/** Strings shaped like well-known credentials. */
const SECRET_SHAPES: readonly RegExp[] = [
  /\b(?:ghp|gho|ghu|ghs|ghr)_[A-Za-z0-9]{20,}\b/g,
  /\bgithub_pat_[A-Za-z0-9_]{20,}\b/g,
  /\bsk-(?:proj-|ant-|live_|test_)?[A-Za-z0-9_-]{16,}\b/g,
  /\b[rs]k_(?:live|test)_[A-Za-z0-9]{16,}\b/g,
  /\bxox[abprs]-[A-Za-z0-9-]{10,}\b/g,
  /\b(?:AKIA|ASIA)[0-9A-Z]{16}\b/g,
  /\beyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]{8,}\b/g,
  /\bAIza[0-9A-Za-z_-]{35}\b/g,
  /\bglpat-[A-Za-z0-9_-]{20,}\b/g,
  /-----BEGIN (?:[A-Z]+ )?PRIVATE KEY-----[\s\S]*?(?:-----END (?:[A-Z]+ )?PRIVATE KEY-----|$)/g,
];

/**
 * A literal that every match of SECRET_SHAPES contains (each shape starts with one): text
 * without any is left alone by all of them, which is most text, so one scan replaces ten.
 */
const SHAPE_PREFIX = /gh[pousr]_|github_pat_|[rs]k[-_]|xox|AKIA|ASIA|eyJ|AIza|glpat-|-----BEGIN /;

/** Query parameters that carry credentials in URLs. */
const SECRET_QUERY = /^(access_token|token|key|api[-_]?key|apikey|secret|password|auth|sig|signature|client_secret|code)$/i;

/** Fields that hold the value of an entry (env var, header, argument) rather than describing it. */
const VALUE_FIELDS = ['value', 'default', 'example', 'examples'];

/** Text that only marks where a user's value goes (`<API_KEY>`, `${input:api-key}`, `Bearer <TOKEN>`): not a secret. */
const PLACEHOLDER = /^((Bearer|Basic|Token) )?(<[A-Za-z0-9_.-]+>|\$\{[A-Za-z0-9_:.-]+\}|\{\{[A-Za-z0-9_.-]+\}\})$/;

export function isPlaceholder(text: string): boolean {
  return PLACEHOLDER.test(text.trim());
}

/** Answers for names already asked about: a catalog's key names are few and asked about again and again. */
const secretNames = new Map<string, boolean>();
const SECRET_NAMES_KEPT = 4096;

/** Whether a variable, header or key name says it carries a credential. */
export function isSecretName(name: string): boolean {
  const known = secretNames.get(name);
  if (known !== undefined) return known;
  const secret = SECRET_NAME.test(name);
  if (secretNames.size < SECRET_NAMES_KEPT && name.length <= 64) secretNames.set(name, secret);
  return secret;
}

/** Removes credential-shaped substrings and URL credentials from one string. */
export function scrubString(text: string): string {
  let out = text;
  if (SHAPE_PREFIX.test(out)) for (const shape of SECRET_SHAPES) out = out.replace(shape, REDACTED);
  if (out.includes('://')) out = out.replace(/\b[a-z][a-z0-9+.-]*:\/\/[^\s"'<>]+/gi, scrubUrl);
  return out;
}

/** Removes userinfo and credential query parameters from a URL; other text is left as is. */
export function scrubUrl(raw: string): string {
  // Userinfo needs an @ and a query a ?: a URL with neither has nothing to remove (most have neither).
  if (!raw.includes('@') && !raw.includes('?')) return raw;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return raw;
  }
  let changed = false;
  if (url.username || url.password) {
    url.username = '';
    url.password = '';
    changed = true;
  }
  for (const key of [...url.searchParams.keys()]) {
    if (SECRET_QUERY.test(key) || isSecretName(key)) {
      url.searchParams.delete(key);
      changed = true;
    }
  }
  return changed ? url.toString() : raw;
}

/**
 * Deep copy of a JSON value with every credential removed: values under secret-named keys,
 * the value fields of entries marked secret, named like secrets or stored under a secret-named
 * key (a schema property `api_key` with a `default`), and secret-shaped strings anywhere.
 * Typed as returning its input's type: the copy has the same shape, only some strings differ.
 * Applied at ingest and by the encoder to every body the service sends.
 */
export function scrubValue<T>(value: T): T;
export function scrubValue(value: unknown, underSecretKey?: boolean): unknown;
export function scrubValue(value: unknown, underSecretKey = false): unknown {
  return scrubDeep(value, underSecretKey);
}

function scrubDeep(value: unknown, underSecretKey: boolean): unknown {
  if (typeof value === 'string') return scrubString(value);
  if (value === null || typeof value !== 'object') return value;
  if (Array.isArray(value)) return value.map((item) => scrubDeep(item, underSecretKey));
  const entries = Object.entries(value);
  const entryIsSecret = underSecretKey || entries.some(
    ([key, field]) =>
      ((key === 'isSecret' || key === 'secret') && field === true) ||
      ((key === 'name' || key === 'env') && typeof field === 'string' && isSecretName(field)),
  );
  const out: Record<string, unknown> = {};
  for (const [key, field] of entries) {
    if (typeof field === 'string' && isPlaceholder(field) && scrubString(field) === field) {
      out[key] = field;
    } else if (typeof field === 'string' && (isSecretName(key) || (entryIsSecret && VALUE_FIELDS.includes(key)))) {
      out[key] = REDACTED;
    } else if (entryIsSecret && VALUE_FIELDS.includes(key) && field !== null && typeof field !== 'boolean') {
      out[key] = REDACTED;
    } else {
      out[key] = scrubDeep(field, isSecretName(key) && typeof field === 'object' && field !== null);
    }
  }
  return out;
}
