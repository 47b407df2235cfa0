/** A finished answer of the core's handler written to a Node response. */
import type { ServerResponse } from "node:http";
import type { SendAnswer } from "../core/answer-request.ts";

/** Writes a finished answer: its headers in order, then its body (none for HEAD, 204 and 304). */
export function writeAnswer(res: ServerResponse, answer: SendAnswer<Buffer>): void {
  // A flat list keeps the core's order and spelling of the headers (setHeader would not).
  res.writeHead(answer.status, answer.headers.flat());
  res.end(answer.body ?? undefined);
}
