/**
 * `subjekti serve --log`: one line per answered request, in the common log format nginx and Apache
 * write (so the tools that read theirs read ours), or as one JSON object a line for log shippers.
 * The time is the adapter's clock: src/core never reads one.
 */
import type { IncomingMessage, ServerResponse } from "node:http";

export type LogFormat = "common" | "json";

/** What one answered request leaves in the log. */
export interface LogEntry {
  readonly remote: string;
  readonly time: Date;
  readonly method: string;
  readonly target: string;
  readonly version: string;
  readonly status: number;
  /** Bytes sent, head and body; null when unknown (a stream cut short). */
  readonly bytes: number | null;
  readonly host: string | null;
  readonly milliseconds: number;
}

/** Where the lines go, and in which format. */
export interface AccessLog {
  readonly format: LogFormat;
  readonly write: (line: string) => void;
}

/** Writes the log's line for `req` once its answer is sent (or its connection gone). */
export function logWhenSent(req: IncomingMessage, res: ServerResponse, log: AccessLog): void {
  const started = performance.now();
  const time = new Date();
  const bytes = bytesSent(req, res);
  let written = false;
  const done = (): void => {
    if (written) return;
    written = true;
    log.write(
      logLine(log.format, {
        remote: req.socket.remoteAddress ?? "-",
        time,
        method: req.method ?? "-",
        target: req.url ?? "-",
        version: req.httpVersion,
        status: res.statusCode,
        bytes: res.writableFinished ? bytes() : null,
        host: req.headers.host ?? null,
        milliseconds: performance.now() - started,
      }),
    );
  };
  // Before the server's own listener, which hands the connection to the next pipelined answer and
  // writes that answer's head: counted after it, the bytes would include it.
  res.prependOnceListener("finish", done);
  res.once("close", done);
}

/**
 * The bytes of `res` as its connection was handed them (head and body, nginx's $bytes_sent), read
 * once it has finished: what the socket counts from when the answer gets it (a pipelined answer
 * waits for the one before) to its "finish".
 */
function bytesSent(req: IncomingMessage, res: ServerResponse): () => number | null {
  const socket = req.socket;
  let from: number | null = null;
  const mark = (): void => {
    from = socket.bytesWritten;
  };
  if (res.socket === null) res.once("socket", mark);
  else mark();
  return () => (from === null ? null : socket.bytesWritten - from);
}

const MONTHS = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"];

/** The line for `entry` (no newline). */
export function logLine(format: LogFormat, entry: LogEntry): string {
  if (format === "json") {
    const { remote, method, target, version, status, bytes, host, milliseconds } = entry;
    return JSON.stringify({
      time: entry.time.toISOString(),
      remote,
      method,
      target,
      version,
      status,
      bytes,
      host,
      ms: Math.round(milliseconds * 10) / 10,
    });
  }
  // %h %l %u %t "%r" %>s %b, the target's control characters and quotes escaped as nginx does.
  return `${entry.remote} - - [${commonTime(entry.time)}] "${escape(`${entry.method} ${entry.target} HTTP/${entry.version}`)}" ${entry.status} ${entry.bytes ?? "-"}`;
}

/** `10/Oct/2000:13:55:36 +0000` (UTC). */
function commonTime(time: Date): string {
  const two = (n: number): string => String(n).padStart(2, "0");
  return `${two(time.getUTCDate())}/${MONTHS[time.getUTCMonth()]}/${time.getUTCFullYear()}:${two(time.getUTCHours())}:${two(time.getUTCMinutes())}:${two(time.getUTCSeconds())} +0000`;
}

function escape(text: string): string {
  return text.replace(/[\x00-\x1f"\\\x7f-\xff]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, "0")}`);
}
