/**
 * Which published version is the latest, by the official registry's rule (its
 * internal/service/versioning.go `CompareVersions`, applied when a version is published): two
 * semantic versions compare as semantic versions; two others by publication time; a semantic
 * version is above one that is not. A version becomes the latest only when it is above the
 * current one, so among equals the earlier keeps it. Deleted versions are never the latest.
 */

/** `major.minor.patch` with an optional prerelease of letters, digits, dots and hyphens, as the official check reads it. */
const SEMANTIC = /^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/;

export function isSemanticVersion(version: string): boolean {
  return SEMANTIC.test(version);
}

/** Semantic order: major, minor, patch as numbers; a release above its prereleases; prereleases as text. */
function compareSemantic(a: string, b: string): number {
  const [mainA = '', preA] = splitPrerelease(a);
  const [mainB = '', preB] = splitPrerelease(b);
  const numsA = mainA.split('.').map(Number);
  const numsB = mainB.split('.').map(Number);
  for (let i = 0; i < 3; i += 1) {
    const diff = (numsA[i] ?? 0) - (numsB[i] ?? 0);
    if (diff !== 0) return Math.sign(diff);
  }
  if (preA === undefined || preB === undefined) return preA === preB ? 0 : preA === undefined ? 1 : -1;
  return preA < preB ? -1 : preA > preB ? 1 : 0;
}

function splitPrerelease(version: string): [string, string | undefined] {
  const dash = version.indexOf('-');
  return dash < 0 ? [version, undefined] : [version.slice(0, dash), version.slice(dash + 1)];
}

/** Above (1), level (0) or below (-1), by the official rule. */
export function compareVersions(a: { readonly version: string; readonly publishedAt: string }, b: { readonly version: string; readonly publishedAt: string }): number {
  const semA = isSemanticVersion(a.version);
  const semB = isSemanticVersion(b.version);
  if (semA && semB) return compareSemantic(a.version, b.version);
  if (!semA && !semB) return a.publishedAt < b.publishedAt ? -1 : a.publishedAt > b.publishedAt ? 1 : 0;
  return semA ? 1 : -1;
}

/** The version that is the latest: each version in publication order takes it when above the one holding it. */
export function latestOf<V extends { readonly version: string; readonly publishedAt: string; readonly status: string }>(versions: readonly V[]): V | null {
  const live = versions.filter((v) => v.status !== 'deleted').sort((a, b) => (a.publishedAt < b.publishedAt ? -1 : a.publishedAt > b.publishedAt ? 1 : 0));
  let latest: V | null = null;
  for (const v of live) if (latest === null || compareVersions(v, latest) > 0) latest = v;
  return latest;
}

/** Why a version cannot be published, or null: a range or wildcard names no one version, and `latest` names the latest in the API's paths. */
export function versionProblem(version: string): string | null {
  if (version === 'latest') return 'must not be "latest": the registry API reads it as the latest version';
  if (/^[\^~<>=!]|\|\||\s|(^|\.)[xX*](\.|$)/.test(version)) return 'must be one exact version, not a range or wildcard such as ^1.2.3, ~1, >=1, 1.x or 1.*';
  return null;
}
