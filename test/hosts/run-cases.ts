/** Runs the request table against one host: one vitest test per case. */
import { expect, it } from "vitest";
import type { Host } from "./hosts.ts";
import { type HostName, REQUEST_CASES, type RequestCase } from "./request-cases.ts";

/**
 * Registers every case `name` can carry; `host()` is called when the tests run (after beforeAll).
 * `adapt` lets a host with documented deviations relax a case (or skip it: null); `cases` is the
 * table by default, or another group of rows (the search goldens).
 */
export function runRequestCases(
  name: HostName,
  host: () => Host,
  adapt: (c: RequestCase) => RequestCase | null = (c) => c,
  cases: readonly RequestCase[] = REQUEST_CASES,
): void {
  for (const original of cases) {
    const c = original.hosts === undefined || original.hosts.includes(name) ? adapt(withException(original, name)) : null;
    it.skipIf(c === null)(original.name, async () => {
      if (c !== null) await checkCase(host(), c);
    });
  }
}

/** The case as `name` answers it: the contract's answer, or the host's listed exception. */
function withException(c: RequestCase, name: HostName): RequestCase {
  const exception = c.exceptions?.[name];
  if (exception === undefined) return c;
  const { because: _because, ...answer } = exception;
  return { ...c, ...answer };
}

/** Sends the case to the host and checks status, the header subset, Content-Length and the body's bytes. */
export async function checkCase(host: Host, c: RequestCase): Promise<void> {
  const headers: Record<string, string> = { ...c.headers };
  if (c.conditional !== undefined) {
    const first = await host.send("GET", c.target, c.headers ?? {}, c.encoding);
    const etag = first.headers["etag"];
    expect(etag, "a GET of the same target carries an ETag").toMatch(/^"[^"]+"$/);
    headers["If-None-Match"] = c.conditional(etag ?? "");
  }
  const answer = await host.send(c.method, c.target, headers, c.encoding);
  const body = answer.body.toString("utf8");
  if (c.body instanceof RegExp) {
    expect(answer.status).toBe(c.status);
    expect(body).toMatch(c.body);
  } else {
    expect({ status: answer.status, body: firstDifference(body, c.body) }).toEqual({
      status: c.status,
      body: firstDifference(c.body, c.body),
    });
  }
  for (const [name, expected] of Object.entries(c.expectHeaders)) {
    const actual = answer.headers[name];
    if (expected === null) expect(actual, name).toBeUndefined();
    else if (expected instanceof RegExp) expect(actual, name).toMatch(expected);
    else expect(actual, name).toBe(expected);
  }
  if (c.status === 304 || c.status === 204) {
    expect(answer.body.length).toBe(0);
  } else if (c.length !== null) {
    expect(answer.headers["content-length"], "content-length").toBe(String(c.length ?? answer.body.length));
    if (c.length === undefined && !(c.body instanceof RegExp)) expect(answer.body.length).toBe(Buffer.byteLength(c.body, "utf8"));
  }
}

/** A short view of `text` around where it first differs from `expected` (the whole text when short or equal). */
function firstDifference(text: string, expected: string): string {
  if (text.length <= 2000 || text === expected) return text.length <= 2000 ? text : `${text.length} chars, as expected`;
  let at = 0;
  while (at < text.length && text[at] === expected[at]) at++;
  return `${text.length} chars; from ${at}: ${text.slice(Math.max(0, at - 100), at + 200)}`;
}
