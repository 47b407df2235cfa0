/**
 * Requests Node's HTTP parser refuses before any handler runs (a method it does not know, such as
 * `FOO` or a lower-case `get`): what can be read of them from the raw bytes, and how to answer on
 * the bare socket. Django would have routed them (it upper-cases the method), so the preview does.
 */
import { STATUS_CODES } from "node:http";
import type { Socket } from "node:net";
import type { HeaderList } from "../core/answer-headers.ts";

/** What the router needs from a request. */
export interface RawRequest {
  readonly method: string;
  readonly target: string;
  /** Header values by lower-case name (the last one wins). */
  readonly headers: Readonly<Record<string, string>>;
}

/** RFC 9110 token characters: what a method name may hold. */
const REQUEST_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+) ([^ \r\n]+) HTTP\/1\.[01]\r?\n/;
const HEADER_LINE = /^([!#$%&'*+.^_`|~0-9A-Za-z-]+):[ \t]*(.*?)[ \t]*$/;

/**
 * The request in `packet` (the bytes Node had when it gave up), or null unless the request line
 * and the whole header block are there and well-formed.
 */
export function readRawRequest(packet: Buffer | undefined): RawRequest | null {
  if (packet === undefined) return null;
  const text = packet.toString("latin1");
  const line = REQUEST_LINE.exec(text);
  const end = text.search(/\r?\n\r?\n/);
  if (line === null || end < 0) return null;
  const headers: Record<string, string> = {};
  for (const headerLine of text.slice(line[0].length, end).split(/\r?\n/)) {
    if (headerLine === "") continue;
    const header = HEADER_LINE.exec(headerLine);
    if (header === null) return null;
    headers[(header[1] ?? "").toLowerCase()] = header[2] ?? "";
  }
  return { method: line[1] ?? "", target: line[2] ?? "", headers };
}

/** Writes one complete answer on a socket Node's server no longer manages, then closes it. */
export function writeRawAnswer(socket: Socket, status: number, headers: HeaderList, body: Buffer | null): void {
  if (!socket.writable) {
    socket.destroy();
    return;
  }
  let head = `HTTP/1.1 ${status} ${STATUS_CODES[status] ?? "Unknown"}\r\n`;
  for (const [name, value] of headers) head += `${name}: ${value}\r\n`;
  head += "Connection: close\r\n\r\n";
  socket.end(body === null ? head : Buffer.concat([Buffer.from(head, "latin1"), body]));
}
