/**
 * The names servers have in the MCP Registry API (`/v0.1`, DESIGN.md "Registry API"): an
 * official server keeps its own name; a server known only from another source (Docker,
 * toolsdk) is named under `local.sextant/`, from its catalog id. The `.local` top-level name is
 * reserved for link-local use (RFC 6762), so no registry can verify it for a publisher: no
 * official name can ever collide with one of these.
 */
import { createHash } from 'node:crypto';

/** The namespace of the names Sextant gives. */
export const LOCAL_NAMESPACE = 'local.sextant';

/** The name pattern and length the registry API allows (its ServerDetail schema). */
export const REGISTRY_NAME = /^[a-zA-Z0-9.-]+\/[a-zA-Z0-9._-]+$/;
export const MAX_REGISTRY_NAME = 200;

/**
 * The registry name of a server known only from other sources, from its catalog id (ids.ts:
 * `[a-z0-9._~-]`, never two dashes in a row): `~` becomes `--`, so two ids never share a name; a
 * name over the limit keeps its start and a hash of the whole id.
 */
export function localRegistryName(id: string): string {
  const name = `${LOCAL_NAMESPACE}/${id.replace(/~/g, '--')}`;
  if (name.length <= MAX_REGISTRY_NAME) return name;
  const hash = createHash('sha256').update(id).digest('hex').slice(0, 12);
  return `${name.slice(0, MAX_REGISTRY_NAME - hash.length - 1)}-${hash}`;
}
