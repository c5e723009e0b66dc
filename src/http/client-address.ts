/** The caller's address: the socket's, or with trusted proxies the matching `X-Forwarded-For` hop. */
import type Koa from 'koa';

export function clientAddress(ctx: Koa.Context, trustProxyHops: number): string {
  const socket = ctx.req.socket.remoteAddress ?? 'unknown';
  if (trustProxyHops <= 0) return socket;
  const forwarded = (ctx.get('x-forwarded-for') || '').split(',').map((part) => part.trim()).filter(Boolean);
  const chain = [...forwarded, socket];
  return chain[Math.max(0, chain.length - 1 - trustProxyHops)] ?? socket;
}
