/**
 * A record's keys are named in its problems as its text writes them, even where JSON.parse reads an
 * escaped key wrongly: V8 13.6 (Node 24) reads `"\u010d"` (how ascii-json.ts writes a key `č`) or
 * `"\""` as `\` once an earlier parse saw a key `"\\"` after the same keys (nodejs/node#63785). On
 * Node 24 the block below showed it every time, the first test's `č` named `\`; on Node 20 and 22
 * the parse is right, and the tests hold either way.
 */
import { describe, expect, it } from "vitest";
import { BlockRenderer } from "../../../src/data/read/render-block.ts";
import { parseBlock } from "../../../src/data/sources/parse-block.ts";
import { withKeysAsWritten } from "../../../src/data/sources/record-text.ts";
import type { SourceFile } from "../../../src/data/sources/source-file.ts";
import { blockOf } from "./block-text.ts";

const file: SourceFile = { name: "subjekti.json", path: "subjekti.json", locateBy: "index", kind: "json" };

/** A valid record's text, `more` (written as it is) after its ten fields. */
function recordText(id: number, more = ""): string {
  const fields = [
    `"id":${id}`,
    `"jedinstvena_oznaka":"${String(id).padStart(4, "0")}"`,
    '"naziv_subjekta":"Grad Čakovec"',
    '"oib":"23557321379"',
    '"razina":"lokalna"',
    '"datum_postanka":"1966-05-14"',
    '"status_subjekta":true',
    '"odobreno":false',
    '"institucija_grad":"Šibenik"',
    '"institucija_email":"a@b.hr"',
  ];
  return `{${fields.join(",")}${more}}`;
}

/** The block read as the product reads it (plain records taken from their bytes): each problem as [index, field, what was expected], and the records rendered. */
function read(texts: readonly string[]): { problems: [number | undefined, string | undefined, string][]; rendered: number[] } {
  const renderer = new BlockRenderer(file, false);
  const sink = { record: (value: unknown, position: number, source?: object) => renderer.add(value, position, source) };
  parseBlock(blockOf(texts, 0), file, sink, renderer.problems, renderer.plainTaker());
  const block = renderer.finish();
  const rendered = [...block.positions].filter((_, k) => block.ends[k] !== (k === 0 ? 0 : block.ends[k - 1]));
  return { problems: block.problems.map((p) => [p.index, p.field, p.expected.key]), rendered };
}

/** The unknown keys the block's records are told of: [index, key]. */
const unknownKeys = (texts: readonly string[]): [number | undefined, string | undefined][] =>
  read(texts)
    .problems.filter(([, , expected]) => expected === "expected.field-name")
    .map(([index, field]) => [index, field]);

describe("keys named as written, whatever JSON.parse read", () => {
  // Each test a key of its own after the ten fields, so the keys after it are that test's alone; the
  // misread key is the record's last (a key after it made V8 read both right).
  it("a key past ASCII after a record with the key `\\` in its place (parsed apart: a plain record between)", () => {
    const texts = [recordText(1, ',"x63785":0,"\\\\":0'), recordText(2), recordText(3, ',"x63785":0,"č":0')];
    expect(unknownKeys(texts)).toEqual([
      [0, "x63785"],
      [0, "\\"],
      [2, "x63785"],
      [2, "č"],
    ]);
  });

  it("a quote after a record with the key `\\` in its place", () => {
    const texts = [recordText(1, ',"y63785":0,"\\\\":0'), recordText(2), recordText(3, ',"y63785":0,"\\"":1')];
    expect(unknownKeys(texts)).toEqual([
      [0, "y63785"],
      [0, "\\"],
      [2, "y63785"],
      [2, '"'],
    ]);
  });

  it("a valid record naming a field with an escape, after a record with a like key in its place", () => {
    // `institucija\u005femail` is `institucija_email`, 17 characters; Node 24 read it as the key before, its text's first 17.
    const before = recordText(1).replace('"institucija_email"', '"institucija\\\\u005f"');
    const escaped = recordText(3).replace('"institucija_email"', '"institucija\\u005femail"');
    expect(read([before, recordText(2), escaped])).toEqual({
      problems: [
        [0, "institucija_email", "expected.string"],
        [0, "institucija\\u005f", "expected.field-name"],
      ],
      rendered: [1, 2],
    });
  });
});

describe("withKeysAsWritten", () => {
  it("keeps the parsed value when no key holds a backslash", () => {
    const value = { a: 1, č: 2 };
    expect(withKeysAsWritten(value, '{"a":1,"\\u010d":2}')).toBe(value);
    expect(withKeysAsWritten([1], "[1]")).toEqual([1]);
  });

  it("reads a misread record's keys from its text: escapes, a key named twice (last value, first place), __proto__", () => {
    // As Node 24 misread it: `\u010d` and `\"` taken for `\`, the two merged.
    const misread = { a: 1, "\\": 3 };
    const text = ' { "\\u010d" : 1, "a":[2, {"b":"}"}], "\\"":3, "\\u010d":4, "__proto__":{"x":1} } ';
    const read = withKeysAsWritten(misread, text) as Record<string, unknown>;
    expect(Object.keys(read)).toEqual(["č", "a", '"', "__proto__"]);
    expect(read).toEqual(
      Object.fromEntries([
        ["č", 4],
        ["a", [2, { b: "}" }]],
        ['"', 3],
        ["__proto__", { x: 1 }],
      ]),
    );
    expect(Object.getPrototypeOf(read)).toBe(Object.prototype);
  });
});
