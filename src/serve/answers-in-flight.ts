/**
 * The answers still being written on each connection: an answer written on the bare socket (to a
 * request Node's parser refused, refused-requests.ts) must come after those to the requests the
 * client pipelined before it.
 */
import type { ServerResponse } from "node:http";
import type { Socket } from "node:net";

const inFlight = new WeakMap<Socket, { count: number; idle: (() => void)[] }>();

/** Counts an answer in flight on its connection until it is sent or the connection is gone. */
export function trackAnswer(socket: Socket, res: ServerResponse): void {
  let state = inFlight.get(socket);
  if (state === undefined) inFlight.set(socket, (state = { count: 0, idle: [] }));
  const entry = state;
  entry.count += 1;
  let done = false;
  const settle = (): void => {
    if (done) return;
    done = true;
    entry.count -= 1;
    if (entry.count === 0) for (const wake of entry.idle.splice(0)) wake();
  };
  res.once("finish", settle);
  res.once("close", settle);
}

/** Resolves once every answer in flight on `socket` has been handed to it. */
export function answersSent(socket: Socket): Promise<void> {
  const state = inFlight.get(socket);
  if (state === undefined || state.count === 0) return Promise.resolve();
  return new Promise((wake) => state.idle.push(wake));
}
