/**
 * A request as the core's handler reads it (SentRequest), from what Node's parser made of it or
 * from the raw bytes of one it refused (raw-request.ts).
 */
import type { IncomingHttpHeaders, IncomingMessage } from "node:http";
import type { SentRequest } from "../core/answer-request.ts";
import type { HeaderReader } from "../core/request/read-target.ts";
import type { RawRequest } from "./raw-request.ts";

/** A request as Node's parser read it: `req.url` is the target as sent, one character per byte. */
export function readRequest(req: IncomingMessage, forwardedProto: boolean): SentRequest {
  return {
    method: req.method ?? "GET",
    target: req.url ?? "/",
    scheme: forwardedProto ? schemeOf(req.headers["x-forwarded-proto"]) : "http",
    host: req.headers.host ?? null,
    headers: headerReader(req.headers),
  };
}

/** A request read from the raw bytes Node's parser refused. */
export function readRawSentRequest(raw: RawRequest, forwardedProto: boolean): SentRequest {
  return {
    method: raw.method,
    target: raw.target,
    scheme: forwardedProto ? schemeOf(raw.headers["x-forwarded-proto"]) : "http",
    host: raw.headers["host"] ?? null,
    headers: headerReader(raw.headers),
  };
}

/** The scheme a proxy reports in X-Forwarded-Proto; anything but `https` is plain http. */
function schemeOf(value: string | string[] | undefined): string {
  return value === "https" ? "https" : "http";
}

/** Headers by lower-case name (Node's parsed ones, or those read from raw bytes). */
function headerReader(headers: IncomingHttpHeaders | Readonly<Record<string, string>>): HeaderReader {
  return {
    get(name) {
      const value = headers[name.toLowerCase()];
      return value === undefined ? null : Array.isArray(value) ? value.join(", ") : value;
    },
  };
}
