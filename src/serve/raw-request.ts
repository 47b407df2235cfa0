/**
 * Requests Node's HTTP parser refuses before any handler runs (a method it does not know, such as
 * `FOO` or a lower-case `get`): what can be read of them from the raw bytes, and how to answer on
 * the bare socket. Django would have routed them (it upper-cases the method), so the preview does.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { SendAnswer } from "../core/answer-request.ts";
import { trimBy } from "../core/request/trim-spaces.ts";
import { endConnection } from "./bounded-server.ts";

/** What the router needs from a request. */
export interface RawRequest {
  readonly method: string;
  readonly target: string;
  /** Header values by lower-case name (the last one wins). */
  readonly headers: Readonly<Record<string, string>>;
}

/** RFC 9110 token characters: what a method name may hold. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([^ \r\n]+) HTTP\/1\.[01]\r?\n/;
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

/**
 * The request in `packet` (the bytes Node had when it gave up) that starts at `from`, or null
 * unless its request line and whole header block are there and well-formed.
 */
export function readRawRequest(packet: Buffer | undefined, from = 0): RawRequest | null {
  if (packet === undefined) return null;
  const text = packet.toString("latin1", from);
  const line = REQUEST_LINE.exec(text);
  const end = text.search(/\r?\n\r?\n/);
  if (line === null || end < 0) return null;
  const headers: Record<string, string> = {};
  for (const headerLine of text.slice(line[0].length, end).split(/\r?\n/)) {
    if (headerLine === "") continue;
    const colon = headerLine.indexOf(":");
    const name = headerLine.slice(0, colon);
    if (colon < 0 || !HEADER_NAME.test(name)) return null;
    headers[name.toLowerCase()] = trimBy(headerLine.slice(colon + 1), isBlank);
  }
  return { method: line[1] ?? "", target: line[2] ?? "", headers };
}

/** The well-formed `HTTP/d.d` at the end of the request line that starts at `from`, or null. */
export function requestVersion(packet: Buffer, from: number): string | null {
  let end = packet.indexOf("\n", from);
  if (end < 0) end = packet.length;
  if (packet[end - 1] === 0x0d) end -= 1;
  const version = packet.toString("latin1", Math.max(from, end - 9), end);
  return /^ HTTP\/[0-9]\.[0-9]$/.test(version) ? version.slice(1) : null;
}

/**
 * Where the request Node's parser failed on begins in `packet`: just after the last blank line
 * (the end of an earlier pipelined request's head) before `errorAt`, else at the packet's start.
 * Earlier requests of the packet were parsed and are answered by the server itself.
 */
export function failedRequestStart(packet: Buffer, errorAt: number | undefined): number {
  const end = Math.min(errorAt ?? packet.length, packet.length);
  let start = 0;
  for (let at = packet.indexOf("\n", 0); at >= 0 && at < end; at = packet.indexOf("\n", at + 1)) {
    // "\n\n" or "\n\r\n" closes a head.
    if (packet[at + 1] === 0x0a && at + 2 <= end) start = at + 2;
    else if (packet[at + 1] === 0x0d && packet[at + 2] === 0x0a && at + 3 <= end) start = at + 3;
  }
  return start;
}

/** Space and tab, the only blanks around a header value (RFC 9110 OWS). */
function isBlank(code: number): boolean {
  return code === 0x20 || code === 0x09;
}

/** Writes one finished answer on a socket Node's server no longer manages, then closes it (within `stallMs`). */
export function writeRawAnswer(socket: Socket, answer: SendAnswer<Uint8Array>, stallMs: number): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  const { status, body } = answer;
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Unknown"}\r\n`;
  for (const [name, value] of answer.headers) head += `${name}: ${value}\r\n`;
  head += "Connection: close\r\n\r\n";
  endConnection(socket, body === null ? Buffer.from(head, "latin1") : Buffer.concat([Buffer.from(head, "latin1"), body]), stallMs);
}
