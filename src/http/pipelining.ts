/**
 * A connection's requests are worked on one at a time, in order: a request pipelined behind
 * another waits until the answer before it has been written out. Node starts every pipelined
 * request as soon as it is parsed and holds their answers until their turn, so one connection
 * could start any number of computations at once, and a client that never reads its answers
 * could make the service hold them all. This way a connection has one request in progress, and
 * one that does not read gets no more work done than fits its socket's buffers.
 */
import type { Socket } from 'node:net';
import type Koa from 'koa';

/**
 * Pipelined requests resumed in one turn of the event loop at most: the rest wait for the next
 * turn, so other clients' requests are read in between, however many connections pipeline.
 */
const RESUMED_PER_TURN = 4;

export function oneRequestPerConnection(): Koa.Middleware {
  /** Per connection, when the answer to its latest request has been written out (or the connection closed). */
  const answered = new WeakMap<Socket, Promise<void>>();
  const resume = turns(RESUMED_PER_TURN);
  return async (ctx, next) => {
    const socket = ctx.req.socket;
    const before = answered.get(socket);
    answered.set(socket, new Promise<void>((resolve) => {
      ctx.res.once('finish', resolve);
      ctx.res.once('close', resolve);
    }));
    if (before) {
      await before;
      // Not at once: an answer written at once (a kept page) would start the next request in
      // the same breath, and every connection's pipeline would run before another client is read.
      await resume();
    }
    return next();
  };
}

/** Resolves the waiting in order, `perTurn` in each turn of the event loop. */
function turns(perTurn: number): () => Promise<void> {
  const waiting: Array<() => void> = [];
  let scheduled = false;
  const turn = (): void => {
    for (let i = 0; i < perTurn; i += 1) waiting.shift()?.();
    scheduled = waiting.length > 0;
    if (scheduled) setImmediate(turn);
  };
  return () =>
    new Promise<void>((resolve) => {
      waiting.push(resolve);
      if (!scheduled) {
        scheduled = true;
        setImmediate(turn);
      }
    });
}
