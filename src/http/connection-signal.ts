/**
 * A signal that aborts when a request's connection closes: its client has gone, so work not yet
 * started for it need not start. One per connection (pipelined requests share it), so a
 * connection that sends many requests adds one listener, not one each.
 */
import { setMaxListeners } from 'node:events';
import type { IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';

const signals = new WeakMap<Socket, AbortSignal>();

export function connectionSignal(req: IncomingMessage): AbortSignal {
  const socket = req.socket;
  let signal = signals.get(socket);
  if (!signal) {
    const controller = new AbortController();
    // A listener per request waiting on this connection (pipelined ones too), each removed when its work is done.
    setMaxListeners(0, controller.signal);
    if (socket.destroyed) controller.abort();
    else socket.once('close', () => controller.abort());
    signals.set(socket, (signal = controller.signal));
  }
  return signal;
}
