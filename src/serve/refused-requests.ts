/**
 * Requests refused before the core's handler sees them: a protocol the preview does not speak
 * (RFC 9112's Host rules, another HTTP version), and those Node's parser refused, read from their
 * raw bytes when those are well-formed (raw-request.ts) and else refused with a status that says
 * why. The answers are written by the server (preview-server.ts), which holds the core's handler.
 */
import type { IncomingMessage } from "node:http";
import type { Socket } from "node:net";
import type { SentRequest } from "../core/answer-request.ts";
import { type Refusal, refusal } from "../core/refusals.ts";
import { answersSent } from "./answers-in-flight.ts";
import { failedRequestStart, readRawRequest, requestVersion } from "./raw-request.ts";
import { readRawSentRequest } from "./read-request.ts";

/** What Node's parser adds to the error of a request it refused. */
export type ParserError = NodeJS.ErrnoException & { rawPacket?: Buffer; bytesParsed?: number };

/** RFC 9112: HTTP/1.1 needs exactly one Host, HTTP/1.0 at most one; other versions are not spoken here. */
export function protocolProblem(req: IncomingMessage): Refusal | null {
  if (req.httpVersionMajor !== 1) {
    // Node reads a request line without a version as HTTP/0.9.
    return req.httpVersionMajor === 0
      ? refusal(400, "the request line has no HTTP version")
      : refusal(505, `HTTP/${req.httpVersion} is not supported: send HTTP/1.1.`);
  }
  let hosts = 0;
  for (let i = 0; i < req.rawHeaders.length; i += 2) if (req.rawHeaders[i]?.toLowerCase() === "host") hosts += 1;
  if (hosts > 1) return refusal(400, "the request has more than one Host header");
  if (hosts === 0 && req.httpVersionMinor === 1) return refusal(400, "an HTTP/1.1 request needs a Host header");
  return null;
}

/** Connections whose refused request is being answered: Node reports every later packet's error too. */
const refusedSockets = new WeakSet<Socket>();

/**
 * What to answer to a request Node's parser refused, once the answers to the earlier requests of
 * its connection (a pipelined packet) are sent: the request read from its raw bytes, for the core
 * to answer, or a refusal; null when nothing is to be answered (the connection is gone, destroyed
 * here, or its refused request is already being answered).
 */
export async function refusedRequest(
  error: ParserError,
  socket: Socket,
  forwardedProto: boolean,
): Promise<{ request: SentRequest } | { refusal: Refusal } | null> {
  if (refusedSockets.has(socket)) return null;
  refusedSockets.add(socket);
  if (error.code === "ECONNRESET" || !socket.writable) {
    socket.destroy();
    return null;
  }
  await answersSent(socket);
  // llhttp refuses method names it does not know and raw non-ASCII bytes in the target; Django
  // would have answered both, so they are answered from the raw bytes when those are well-formed.
  if ((error.code === "HPE_INVALID_METHOD" || error.code === "HPE_INVALID_URL") && error.rawPacket !== undefined) {
    const raw = readRawRequest(error.rawPacket, failedRequestStart(error.rawPacket, error.bytesParsed));
    if (raw !== null) return { request: readRawSentRequest(raw, forwardedProto) };
  }
  return { refusal: parserRefusal(error) };
}

/** The refusal of what Node's parser could not read, with the status its error calls for. */
function parserRefusal(error: ParserError): Refusal {
  switch (error.code) {
    case "HPE_HEADER_OVERFLOW":
      return refusal(431, "Request header fields too large: the request line and headers are over the preview's limit.");
    case "ERR_HTTP_REQUEST_TIMEOUT":
      return refusal(408, "Request timeout: the request line and headers did not arrive in time.");
    case "HPE_INVALID_VERSION":
      // A well-formed version Node does not speak (HTTP/1.2, HTTP/3.0) is 505; "HTTP/9" is no version (400).
      if (
        error.rawPacket !== undefined &&
        requestVersion(error.rawPacket, failedRequestStart(error.rawPacket, error.bytesParsed)) !== null
      ) {
        return refusal(505, "HTTP version not supported: send HTTP/1.1.");
      }
      break;
    default:
      break;
  }
  return refusal(400, `Node's HTTP parser refused it (${error.code ?? error.message})`);
}
