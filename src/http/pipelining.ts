/**
 * A connection's requests are worked on one at a time, in order: a request pipelined behind
 * another waits until the answer before it has been written out. Node starts every pipelined
 * request as soon as it is parsed and holds their answers until their turn, so one connection
 * could start any number of computations at once, and a client that never reads its answers
 * could make the service hold them all. This way a connection has one request in progress, and
 * one that does not read gets no more work done than fits its socket's buffers.
 */
import type { Socket } from 'node:net';
import { setImmediate as nextTurn } from 'node:timers/promises';
import type Koa from 'koa';

export function oneRequestPerConnection(): Koa.Middleware {
  /** Per connection, when the answer to its latest request has been written out (or the connection closed). */
  const answered = new WeakMap<Socket, Promise<void>>();
  return async (ctx, next) => {
    const socket = ctx.req.socket;
    const before = answered.get(socket);
    answered.set(socket, new Promise<void>((resolve) => {
      ctx.res.once('finish', resolve);
      ctx.res.once('close', resolve);
    }));
    if (before) {
      await before;
      // A turn of the event loop first: an answer written at once (a kept page) would otherwise
      // start the next request in the same breath, and a connection's whole pipeline would run
      // before any other client is read.
      await nextTurn();
    }
    return next();
  };
}
