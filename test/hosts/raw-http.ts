/**
 * A minimal HTTP/1.1 client over a bare socket, so the host tests can send what fetch and
 * http.request refuse: any method name (FOO, lower-case get, TRACE), raw UTF-8 in the target,
 * any Host header. One request per connection (`Connection: close`).
 */
import { connect } from "node:net";

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
): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host: "127.0.0.1", port });
    const parts: Buffer[] = [];
    let head = ` HTTP/1.1\r\n`;
    for (const [name, value] of Object.entries(headers)) head += `${name}: ${value}\r\n`;
    head += "Connection: close\r\n\r\n";
    socket.setTimeout(timeoutMs, () => socket.destroy(new Error(`no answer to ${method} ${target.slice(0, 80)} in ${timeoutMs} ms`)));
    socket.on("connect", () => socket.write(Buffer.concat([Buffer.from(`${method} `, "utf8"), Buffer.from(target, encoding), Buffer.from(head, "utf8")])));
    socket.on("data", (chunk: Buffer) => parts.push(chunk));
    socket.on("error", reject);
    socket.on("end", () => {
      try {
        resolve(parseAnswer(Buffer.concat(parts), method.toUpperCase() === "HEAD"));
      } catch (error) {
        reject(error);
      }
    });
  });
}

function parseAnswer(data: Buffer, isHead: boolean): RawAnswer {
  const end = data.indexOf("\r\n\r\n");
  if (end < 0) throw new Error(`no complete answer head in ${JSON.stringify(data.toString("latin1").slice(0, 200))}`);
  const lines = data.subarray(0, end).toString("latin1").split("\r\n");
  const status = Number(/^HTTP\/1\.[01] (\d{3})/.exec(lines[0] ?? "")?.[1]);
  const headers: Record<string, string> = {};
  for (const line of lines.slice(1)) {
    const colon = line.indexOf(":");
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  let body = data.subarray(end + 4);
  if (isHead || status === 304 || status === 204) body = Buffer.alloc(0);
  else if (headers["transfer-encoding"]?.toLowerCase() === "chunked") body = dechunk(body);
  else if (headers["content-length"] !== undefined) body = body.subarray(0, Number(headers["content-length"]));
  return { status, headers, body };
}

function dechunk(data: Buffer): Buffer {
  const parts: Buffer[] = [];
  let at = 0;
  for (;;) {
    const lineEnd = data.indexOf("\r\n", at);
    if (lineEnd < 0) throw new Error("truncated chunked body");
    const size = parseInt(data.subarray(at, lineEnd).toString("latin1"), 16);
    if (size === 0) return Buffer.concat(parts);
    parts.push(data.subarray(lineEnd + 2, lineEnd + 2 + size));
    at = lineEnd + 2 + size + 2;
  }
}
