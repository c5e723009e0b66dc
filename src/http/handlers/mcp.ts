/** Handler of the `mcp` tag: postMcp, the Streamable HTTP endpoint. */
import { handleMcpPost, type McpTransportOptions } from '../../mcp/transport.js';
import type { McpServer } from '../../mcp/server.js';
import type { HandlerMap } from '../operation.js';

export function mcpHandlers(server: McpServer, options: McpTransportOptions): Pick<HandlerMap, 'postMcp'> {
  return {
    postMcp: async ({ body, headers, client }) => handleMcpPost(server, options, typeof body === 'string' ? body : '', headers, client),
  };
}
