/**
 * Keys that identify one server across sources (DESIGN.md "Sources"): the repository URL
 * (with subfolder), each package identifier without its version, each remote URL.
 */
import { LIMITS, lengthOf, type UpstreamServer } from './upstream.js';

export function matchKeysOf(server: UpstreamServer): string[] {
  const keys = new Set<string>();
  const repo = repositoryKey(server.repositoryUrl, server.repositorySubfolder);
  if (repo) keys.add(repo);
  for (const pkg of server.packages) keys.add(packageKey(pkg.registryType, pkg.identifier));
  for (const remote of server.remotes) keys.add(remoteKey(remote.url));
  // A key longer than the catalog holds merges nothing: left out.
  return [...keys].filter((key) => lengthOf(key) <= LIMITS.matchKey);
}

/** `https://github.com/Owner/Repo.git` + `src/x` → `repo:github.com/owner/repo/src/x`. */
export function repositoryKey(url: string | null, subfolder: string | null): string | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const segments = parsed.pathname.split('/').filter(Boolean);
  if (segments.length < 2) return null;
  const [owner, rawRepo, kind, , ...rest] = segments;
  const repo = (rawRepo ?? '').replace(/\.git$/i, '');
  const inTree = (kind === 'tree' || kind === 'blob') && rest.length > 0 ? rest.join('/') : null;
  const folder = (subfolder ?? inTree ?? '').replace(/^\.?\/+|\/+$/g, '');
  return `repo:${parsed.hostname.replace(/^www\./, '')}/${owner}/${repo}${folder ? `/${folder}` : ''}`.toLowerCase();
}

/** A package identity: registry and name, no version or tag, normalized per registry. */
export function packageKey(registryType: string, identifier: string): string {
  let id = identifier.trim().toLowerCase();
  if (registryType === 'oci') {
    id = id.replace(/@sha256:[a-f0-9]+$/, '').replace(/:[^/:]+$/, '').replace(/^(docker\.io|index\.docker\.io)\//, '');
  } else if (registryType === 'pypi') {
    id = id.replace(/[-_.]+/g, '-');
  } else if (registryType === 'npm') {
    id = /^(@?[^@]+)/.exec(id)?.[1] ?? id;
  }
  return `pkg:${registryType}:${id}`;
}

export function remoteKey(url: string): string {
  try {
    const parsed = new URL(url);
    return `remote:${parsed.hostname}${parsed.pathname.replace(/\/+$/, '')}`.toLowerCase();
  } catch {
    return `remote:${url.toLowerCase()}`;
  }
}
