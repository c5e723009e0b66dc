/** MCP protocol constants (MCP specification, revisions 2025-11-25, 2025-06-18, 2025-03-26). */
import type { components } from '../../generated/openapi.js';

export type ProtocolVersion = components['schemas']['McpProtocolVersion'];

/** Newest first; the first is offered when a client asks for one we do not know. */
export const PROTOCOL_VERSIONS: readonly ProtocolVersion[] = ['2025-11-25', '2025-06-18', '2025-03-26'];
export const LATEST_PROTOCOL_VERSION: ProtocolVersion = '2025-11-25';
/** What a request without an MCP-Protocol-Version header is taken to speak (Streamable HTTP, 2025-06-18). */
export const DEFAULT_PROTOCOL_VERSION: ProtocolVersion = '2025-03-26';

export function asProtocolVersion(value: unknown): ProtocolVersion | null {
  return PROTOCOL_VERSIONS.find((version) => version === value) ?? null;
}

/** JSON-RPC 2.0 error codes. */
export const RpcError = {
  parse: -32700,
  invalidRequest: -32600,
  methodNotFound: -32601,
  invalidParams: -32602,
  internal: -32603,
} as const;
