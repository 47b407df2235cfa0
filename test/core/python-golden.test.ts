/**
 * The core against CPython: every case in golden/python-cases.json (made by
 * test/oracle/python-golden.py, CPython 3.11) must come out of the TypeScript core the same.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { buildLinks, extraParams } from "../../src/core/build-links.ts";
import { parsePythonInt } from "../../src/core/request/python-int.ts";
import { parseQuery, readPaging } from "../../src/core/request/read-query.ts";
import { toJson } from "../../src/core/render-page.ts";

interface Golden {
  readonly python: string;
  readonly baseUrl: string;
  readonly maxLimit: number;
  readonly digitZeros: readonly number[];
  readonly int: readonly { readonly input: string; readonly value: string | null }[];
  readonly parseQsl: readonly { readonly query: string; readonly pairs: readonly [string, string][] }[];
  readonly pages: readonly {
    readonly query: string;
    readonly count: number;
    readonly limit: number;
    readonly offset: string;
    readonly next: string | null;
    readonly previous: string | null;
  }[];
  readonly json: readonly { readonly value: unknown; readonly json: string }[];
}

const golden = JSON.parse(readFileSync(new URL("./golden/python-cases.json", import.meta.url), "utf8")) as Golden;

/** A case name that shows invisible characters and stays short. */
function show(text: string): string {
  const escaped = JSON.stringify(text).replace(/[^\x20-\x7e]/gu, (c) => `\\u{${c.codePointAt(0)?.toString(16)}}`);
  return escaped.length > 60 ? `${escaped.slice(0, 40)}…(${text.length} chars)` : escaped;
}

describe(`int() as CPython ${golden.python} reads it`, () => {
  it.each(golden.int.map((c) => [show(c.input), c.value === null ? "ValueError" : show(c.value), c] as const))(
    "int(%s) -> %s",
    (_name, _expected, c) => {
      const value = parsePythonInt(c.input);
      expect(value === null ? null : value.toString()).toBe(c.value);
    },
  );

  it("every Unicode decimal-digit run CPython knows is read, and no other", () => {
    const zeros: number[] = [];
    for (let cp = 0x80; cp <= 0x10ffff; cp++) {
      if (cp >= 0xd800 && cp <= 0xdfff) continue;
      if (parsePythonInt(String.fromCodePoint(cp)) === 0n) zeros.push(cp);
    }
    expect(zeros).toEqual(golden.digitZeros);
  });
});

describe("parseQuery as parse_qsl(keep_blank_values=True)", () => {
  it.each(golden.parseQsl.map((c) => [show(c.query), c.pairs.length, c] as const))("parse_qsl(%s) -> %i pairs", (_name, _count, c) => {
    expect(parseQuery(c.query)).toEqual(c.pairs);
  });
});

describe("readPaging and buildLinks as DRF's LimitOffsetPagination", () => {
  it.each(golden.pages.map((c) => [show(c.query), c.count, c.limit, c.offset, c.next ?? "null", c] as const))(
    "?%s of %i -> limit %i offset %s next %s",
    (_name, _count, _limit, _offset, _next, c) => {
      const params = parseQuery(c.query);
      const { limit, offset } = readPaging(params, golden.maxLimit);
      const links = buildLinks(golden.baseUrl, extraParams(params), limit, offset, c.count);
      expect({ limit, offset: offset.toString(), next: links.next, previous: links.previous }).toEqual({
        limit: c.limit,
        offset: c.offset,
        next: c.next,
        previous: c.previous,
      });
    },
  );
});

describe("toJson as DRF's JSONRenderer", () => {
  it.each(golden.json.map((c) => [show(c.json), c] as const))("-> %s", (_name, c) => {
    expect(toJson(c.value)).toBe(c.json);
  });
});
