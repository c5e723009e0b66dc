/**
 * Small readers for untyped upstream JSON: each returns a typed value or a neutral default.
 * Every string and schema read here is scrubbed of credentials, so normalized records are
 * clean by construction.
 */
import type { JsonSchemaObject, Remote, RemoteHeader, ToolAnnotations } from '../types.js';
import { scrubString, scrubUrl, scrubValue } from '../catalog/secrets.js';

import { asObject, isObject } from '../json.js';

export { asArray, asObject, isObject, type JsonObject } from '../json.js';

/** Control characters but tab, newline and carriage return: never meaningful in a name or a description, and NUL cannot be stored in PostgreSQL text. */
const CONTROL = /[\u0000-\u0008\u000B\u000C\u000E-\u001F\u007F]/g;
/** In a `u` regex a surrogate that is half of a pair does not match: these are the lone ones. */
const LONE_SURROGATE = /\p{Cs}/gu;

/**
 * A trimmed non-empty string with control characters and credentials removed, or null. A lone
 * surrogate becomes U+FFFD, as it would on its way into the store as UTF-8, so what is scanned
 * and fingerprinted is what is stored.
 */
export function text(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const trimmed = scrubString(value.replace(CONTROL, '').replace(LONE_SURROGATE, '\uFFFD').trim());
  return trimmed === '' ? null : trimmed;
}

export function flag(value: unknown): boolean | null {
  return typeof value === 'boolean' ? value : null;
}

/** An ISO-8601 UTC timestamp, or null when the value is not a date. */
export function timestamp(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const ms = Date.parse(value);
  return Number.isNaN(ms) ? null : new Date(ms).toISOString();
}

/**
 * The http(s) URL in a value, or null. A URL is kept as its source wrote it (credentials taken
 * out): a client that may only use the URLs a registry lists (VS Code's "Registry only") compares
 * them as text, so `https://mcp.example.com` must not become `https://mcp.example.com/`. Text a
 * URL parser would rewrite beyond that (spaces, controls) is kept in its parsed form.
 */
export function httpUrl(value: unknown): string | null {
  const raw = text(value);
  if (!raw) return null;
  try {
    const scrubbed = scrubUrl(raw);
    const url = new URL(scrubbed);
    if (url.protocol !== 'https:' && url.protocol !== 'http:') return null;
    return /^https?:\/\/[^\s\x00-\x1f\x7f]+$/i.test(scrubbed) ? scrubbed : url.toString();
  } catch {
    return null;
  }
}

/** A tool's input schema as an object schema; anything else becomes an empty one. */
export function objectSchema(upstream: unknown): JsonSchemaObject {
  const value = scrubValue(upstream);
  if (isObject(value) && (value.type === 'object' || value.type === undefined)) {
    return { ...value, type: 'object', properties: asObject(value.properties) };
  }
  return { type: 'object', properties: {} };
}

/** MCP tool annotations, each hint null unless declared. */
export function annotations(value: unknown, fallbackTitle: string | null = null): ToolAnnotations {
  const raw = asObject(value);
  return {
    title: text(raw.title) ?? fallbackTitle,
    readOnlyHint: flag(raw.readOnlyHint),
    destructiveHint: flag(raw.destructiveHint),
    idempotentHint: flag(raw.idempotentHint),
    openWorldHint: flag(raw.openWorldHint),
  };
}

/** A remote endpoint from an upstream URL; nothing when the URL is not http(s). */
export function remote(url: unknown, transport: unknown, headers: RemoteHeader[] = []): Remote[] {
  const href = httpUrl(url);
  if (!href) return [];
  return [{ transport: transport === 'sse' ? 'sse' : 'streamable-http', url: href, host: new URL(href).hostname, headers }];
}
