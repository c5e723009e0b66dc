/**
 * What each kind of server badge says (`/api/v1/servers/{id}/badge.svg`): one fact, in the words
 * the server's page uses, with a colour from the badge palette. Unknown is said as unknown.
 */
import type { operations } from '../../generated/openapi.js';
import type { BadgeColor } from './badge.js';
import type { Server, StatusReport, TrustReport } from '../types.js';

/** What a badge states: the contract's `kind` of getServerBadge. */
export type BadgeKind = NonNullable<NonNullable<operations['getServerBadge']['parameters']['query']>['kind']>;

export interface BadgeText {
  readonly label: string;
  readonly message: string;
  readonly color: BadgeColor;
}

const STATES: Readonly<Record<string, { message: string; color: BadgeColor }>> = {
  up: { message: 'up', color: 'green' },
  auth_required: { message: 'up, sign-in needed', color: 'green' },
  not_mcp: { message: 'not answering MCP', color: 'red' },
  down: { message: 'down', color: 'red' },
  blocked: { message: 'not checked', color: 'grey' },
  unknown: { message: 'not checked yet', color: 'grey' },
};

/** The primary endpoint's state as the monitor last saw it. */
export function statusBadge(status: StatusReport): BadgeText {
  const primary = status.endpoints[0];
  if (!primary) return { label: 'MCP endpoint', message: 'none (runs locally)', color: 'grey' };
  const state = STATES[primary.state] ?? { message: primary.state, color: 'grey' };
  return { label: 'MCP endpoint', ...state };
}

/** How many trust checks passed and failed: counts, not a verdict. */
export function trustBadge(trust: TrustReport): BadgeText {
  const { pass, fail, unknown } = trust.summary;
  return { label: 'trust checks', message: `${pass} pass, ${fail} fail, ${unknown} unknown`, color: fail > 0 ? 'yellow' : 'green' };
}

/** How many tools the server lists and how many findings of medium or high severity the tool-definition scan made in them. */
export function toolsBadge(server: Pick<Server, 'toolCount' | 'toolFindings'>): BadgeText {
  if (server.toolCount === null) return { label: 'tools', message: 'not listed', color: 'grey' };
  // A source or a check stated an empty list: nothing was scanned, and none is a fact.
  if (server.toolCount === 0 || server.toolFindings === null) return { label: 'tools', message: '0 tools', color: 'grey' };
  const tools = `${server.toolCount} ${server.toolCount === 1 ? 'tool' : 'tools'}`;
  const findings = server.toolFindings;
  return findings === 0
    ? { label: 'tools', message: `${tools}, no findings`, color: 'blue' }
    : { label: 'tools', message: `${tools}, ${findings} ${findings === 1 ? 'finding' : 'findings'}`, color: 'red' };
}
