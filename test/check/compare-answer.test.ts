/** compareAnswer: what counts as a difference between the core's answer and a host's, and what a CDN may do without one. */
import { describe, expect, it } from "vitest";
import type { SendAnswer } from "../../src/core/answer-request.ts";
import { collectionHeaders } from "../../src/core/answer-headers.ts";
import { compareAnswer, firstDifference } from "../../src/check/compare-answer.ts";
import type { ReceivedAnswer } from "../../src/check/send-request.ts";

const UTF8 = new TextEncoder();
const BODY = '{"count":1,"next":null,"previous":null,"results":[]}';
const expected: SendAnswer = {
  kind: "send",
  status: 200,
  headers: [...collectionHeaders("public, max-age=300", '"abc-1"'), ["Content-Length", String(BODY.length)]],
  body: UTF8.encode(BODY),
};

/** The host's answer: the expected one, with `change` applied to its headers (lower-case names) and body. */
function received(change: (headers: Map<string, string>) => void = () => undefined, body = BODY, status = 200): ReceivedAnswer {
  const headers = new Map(expected.headers.map(([name, value]) => [name.toLowerCase(), value]));
  change(headers);
  return { status, headers, body: Buffer.from(body) };
}

describe("firstDifference", () => {
  it.each<[string, string, number | null]>([
    ["abc", "abc", null],
    ["abc", "xbc", 0],
    ["abc", "abd", 2],
    ["abc", "ab", 2],
    ["", "a", 0],
  ])("%j vs %j -> %j", (a, b, offset) => {
    expect(firstDifference(UTF8.encode(a), UTF8.encode(b))).toBe(offset);
  });
});

describe("compareAnswer", () => {
  it.each<[string, ReceivedAnswer, ReturnType<typeof compareAnswer>]>([
    ["the same answer -> none", received(), []],
    ["cache tags gone (a CDN consumes them) -> none", received((h) => (h.delete("netlify-cache-tag"), h.delete("cache-tag"))), []],
    ["no Content-Length (chunked) -> none", received((h) => h.delete("content-length")), []],
    ["Vary with Accept-Encoding added, another case -> none", received((h) => h.set("vary", "accept, Accept-Encoding")), []],
    ["headers a host adds outside the contract (Date, Server) -> none", received((h) => (h.set("date", "x"), h.set("server", "y"))), []],
    ["another status -> status", received(undefined, BODY, 500), [{ what: "status", expected: "200", got: "500" }]],
    [
      "Allow missing -> Allow, named as the core writes it",
      received((h) => h.delete("allow")),
      [{ what: "Allow", expected: "GET, HEAD, OPTIONS", got: "(none)" }],
    ],
    [
      "a Location the core does not give -> Location",
      received((h) => h.set("location", "/x")),
      [{ what: "Location", expected: "(none)", got: "/x" }],
    ],
    [
      "another Content-Length -> Content-Length",
      received((h) => h.set("content-length", "3")),
      [{ what: "Content-Length", expected: String(BODY.length), got: "3" }],
    ],
    [
      "one byte changed -> body at its offset, 24 bytes before it and 40 after",
      received(undefined, BODY.replace("1", "2")),
      [
        {
          what: "body",
          expected: '{"count":1,"next":null,"previous":null,"results":…',
          got: '{"count":2,"next":null,"previous":null,"results":…',
          offset: 9,
        },
      ],
    ],
  ])("%s", (_name, got, differences) => {
    expect(compareAnswer(expected, got)).toEqual(differences);
  });

  it("a HEAD or 304 expects no body: one that comes is a body difference at byte 0", () => {
    const head: SendAnswer = { ...expected, body: null };
    expect(compareAnswer(head, received())).toEqual([
      { what: "body", expected: "(empty)", got: expect.stringContaining('{"count":1') as unknown as string, offset: 0 },
    ]);
  });
});
