/**
 * A minimal HTTP/1.1 client over a bare socket, so the host tests can send what fetch and
 * http.request refuse: any method name (FOO, lower-case get, TRACE), raw UTF-8 in the target,
 * any Host header. One request per connection (`Connection: close`); the answer is taken as soon
 * as it is complete (its length, or the last chunk), since not every server closes the connection
 * when asked (workerd under `wrangler dev` keeps it open).
 *
 * An answer that must have no body (HEAD, 204, 304) has no length to end it, so nothing after its
 * head is discarded: a request that may get one (HEAD, OPTIONS, If-None-Match) is followed on the
 * same connection by a second request, and every byte between the first answer's head and the
 * second answer (or the connection's end) is reported as the first one's body. A host that sends
 * a body there fails the "no body" rows over HTTP as it does in-process.
 */
import { connect, type Socket } from "node:net";
import { connect as connectTls } from "node:tls";

export interface RawAnswer {
  readonly status: number;
  /** Lower-case header names; repeated headers joined by ", ". */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: Buffer;
}

/** Sends one request to 127.0.0.1:`port` and reads the whole answer. */
export function sendRaw(
  port: number,
  method: string,
  target: string,
  headers: Readonly<Record<string, string>>,
  /** `latin1`: each character of `target` is one byte (raw bytes that are no UTF-8). */
  encoding: "utf8" | "latin1" = "utf8",
  timeoutMs = 20_000,
  /** Over TLS, trusting these PEM certificates, with this TLS name (SNI). */
  tls?: { readonly ca: string; readonly servername: string },
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket: Socket =
      tls === undefined
        ? connect({ host: "127.0.0.1", port })
        : connectTls({ host: "127.0.0.1", port, ca: tls.ca, servername: tls.servername });
    const parts: Buffer[] = [];
    let head = ` HTTP/1.1\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    const followed = mayHaveNoBody(method, headers);
    const host = Object.entries(headers).find(([name]) => name.toLowerCase() === "host")?.[1] ?? "127.0.0.1";
    // The second request, whose answer marks where the first one's ends.
    head += followed
      ? `\r\nGET /.well-known/raw-http-next HTTP/1.1\r\nHost: ${host}\r\nConnection: close\r\n\r\n`
      : "Connection: close\r\n\r\n";
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer to ${method} ${target.slice(0, 80)} in ${timeoutMs} ms`)));
    socket.on(tls === undefined ? "connect" : "secureConnect", () =>
      socket.write(Buffer.concat([Buffer.from(`${method} `, "utf8"), Buffer.from(target, encoding), Buffer.from(head, "utf8")])),
    );
    const isHead = method.toUpperCase() === "HEAD";
    socket.on("data", (chunk: Buffer) => {
      parts.push(chunk);
      const answer = parseAnswer(Buffer.concat(parts), isHead, false, followed);
      if (answer !== null) {
        socket.destroy();
        resolve(answer);
      }
    });
    socket.on("error", reject);
    socket.on("end", () => {
      try {
        resolve(parseAnswer(Buffer.concat(parts), isHead, true, followed) as RawAnswer);
      } catch (error) {
        reject(error);
      }
    });
  });
}

/** Whether the answer may be one without a body (HEAD; OPTIONS: a 204 preflight; If-None-Match: a 304). */
function mayHaveNoBody(method: string, headers: Readonly<Record<string, string>>): boolean {
  const upper = method.toUpperCase();
  return upper === "HEAD" || upper === "OPTIONS" || Object.keys(headers).some((name) => name.toLowerCase() === "if-none-match");
}

/**
 * The answer in `data`; null when it may not be complete yet (`ended`: the server closed, so it is
 * all there is). `followed`: a second request was sent after it, so an answer without a body ends
 * where the second answer starts.
 */
function parseAnswer(data: Buffer, isHead: boolean, ended: boolean, followed: boolean): RawAnswer | null {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) {
    if (!ended) return null;
    throw new Error(`no complete answer head in ${JSON.stringify(data.toString("latin1").slice(0, 200))}`);
  }
  const lines = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let body: Buffer | null = data.subarray(end + 4);
  if (isHead || status === 304 || status === 204) {
    // What follows the head up to the next answer is a body the server should not have sent.
    const next = body.indexOf("HTTP/1.");
    if (next >= 0) body = body.subarray(0, next);
    else if (!ended && followed) body = null;
  } else if (headers["transfer-encoding"]?.toLowerCase() === "chunked") body = dechunk(body, ended);
  else if (headers["content-length"] !== undefined) {
    const length = Number(headers["content-length"]);
    body = body.length >= length || ended ? body.subarray(0, length) : null;
  } else if (!ended) body = null;
  return body === null ? null : { status, headers, body };
}

/** A chunked body decoded; null when its last chunk has not come yet (an error once the server closed). */
function dechunk(data: Buffer, ended: boolean): Buffer | null {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    const size = lineEnd < 0 ? NaN : parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (size === 0) return Buffer.concat(parts);
    if (Number.isNaN(size) || lineEnd + 2 + size > data.length) {
      if (!ended) return null;
      throw new Error("truncated chunked body");
    }
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
