/** Versions are append-only upstream: an update keeps the versions its server already knew. */
import type { StoredSource } from '../store/index.js';
import { serverOf, type ReadRecord } from './read.js';
import { isUpstreamServer } from './upstream.js';

/** The record with the versions its stored form already knew (newest first). */
export function withKnownVersions<R extends ReadRecord>(record: R, stored: readonly StoredSource[] | undefined): R {
  const previous = stored?.find((s) => s.source === record.source && s.key === record.key)?.normalized;
  if (!isUpstreamServer(previous) || previous.versions.length === 0) return record;
  const current = serverOf(record);
  if (current.versions.length === 0) return record;
  const known = new Set(current.versions.map((v) => v.version));
  const older = previous.versions.filter((v) => !known.has(v.version)).map((v) => ({ ...v, isLatest: false }));
  if (older.length === 0) return record;
  const versions = [...current.versions, ...older].sort((a, b) => (b.publishedAt ?? '').localeCompare(a.publishedAt ?? ''));
  const dates = versions.map((v) => v.publishedAt).filter((d): d is string => d !== null).sort();
  // The documents of those older versions stay too, for the registry API.
  const given = new Set((current.published ?? []).map((v) => v.version));
  const olderPublished = (previous.published ?? []).filter((v) => !given.has(v.version)).map((v) => ({ ...v, isLatest: false }));
  const published = current.published === undefined ? undefined : [...current.published, ...olderPublished];
  return { ...record, serverJson: JSON.stringify({ ...current, versions, publishedAt: dates[0] ?? current.publishedAt, ...(published ? { published } : {}) }) };
}
