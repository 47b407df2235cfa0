/**
 * Plain records taken from their bytes (src/data/read/plain-record.ts) come out as JSON.parse,
 * validateSubject and renderSubject would give them, byte for byte: a block renders to the same
 * bytes, keys, positions and problems with the plain path as without it, whatever its records; and
 * the common record, diacritics, quoted names and any key order included, is taken without a parse.
 */
import fc from "fast-check";
import { afterEach, describe, expect, it, vi } from "vitest";
import { BlockRenderer } from "../../../src/data/read/render-block.ts";
import { PlainRecord } from "../../../src/data/read/plain-record.ts";
import { renderSubject, SUBJECT_FIELDS } from "../../../src/core/render-page.ts";
import { parseBlock } from "../../../src/data/sources/parse-block.ts";
import type { BlockText } from "../../../src/data/sources/record-sink.ts";
import type { SourceFile } from "../../../src/data/sources/source-file.ts";
import { blockOf as blockAt } from "./block-text.ts";

/** The block of `texts`, its first record the array's element 40. */
const blockOf = (texts: readonly string[]) => blockAt(texts, 40);

const file: SourceFile = { name: "subjekti.json", path: "subjekti.json", locateBy: "index", kind: "json" };

/** A valid record's values as written in JSON, by field. */
const VALID: Record<string, string> = {
  id: "7",
  jedinstvena_oznaka: '"0007"',
  naziv_subjekta: '"Dječji vrtić \\"Rabra\\" Čakovec"',
  oib: '"23557321379"',
  razina: '"lokalna"',
  datum_postanka: '"1966-05-14"',
  status_subjekta: "true",
  odobreno: "false",
  institucija_grad: '"Šibenik"',
  institucija_email: '"tajnistvo@dv-rabra.hr"',
};

/** Values at the edges of what the plain path takes, JSON's forms and the rules' alike (some not JSON at all). */
const EDGES = [
  ...["0", "1", "-1", "01", "1.0", "1e2", "1E2", "999999999999999", "9007199254740993", "1 2", "1x"],
  ...["true", "false", "tru", "truex", "null", "[]", "{}", '{"a":1}', "[1]"],
  ...['""', '" "', '"\\u00a0"', '"\u00a0"', '"\u3000x"', '"x\u3000"', '"\\t"', '"\\n"', '"\t"', '"\u0001"', '"\u007f"'],
  ...['"a\\"b"', '"a\\\\b"', '"a\\/b"', '"\\u0041"', '"\\ud800"', '"\\ud83d\\ude00"', '"😀"', '"a\u2028b"', '"a\u2029b"', '"\u2027"'],
  ...[
    '"0001"',
    '"123"',
    '"12345"',
    '"00O1"',
    '"00:1"',
    '"0/01"',
    '"2355732137:"',
    '"١٢٣٤"',
    '"23557321379"',
    '"23557321378"',
    '"2355732137"',
    '"235573213799"',
  ],
  ...['"lokalna"', '"nacionalna"', '"županijska"', '"Lokalna"', '"lokalna "', '"1966-05-14"', '"2023-02-29"', '"2024-02-29"'],
  ...['"0000-01-01"', '"1966-5-14"', '"1966-13-01"', '"1966/05/14"', '"čćžšđ"', '"x"', `"${"y".repeat(30)}"`],
];

/** Whitespace as JSON has it, and bytes that are not (the record is then no JSON, or the bytes no record). */
const SPACES = ["", " ", "\n  ", "\t", "\r\n"];
const NOT_SPACES = ["\u00a0", "\v", "\f", ",", "{", "}", '"'];
const NO_SPACE = ["", "", "", "", ""];

/** A record's text: VALID with `changes`, its fields in `fields`' order, `space` around its punctuation. */
function textOf(fields: readonly string[], changes: Readonly<Record<string, string>>, space: readonly string[]): string {
  const entries = fields.map((f) => `"${f}"${space[0]}:${space[1]}${changes[f] ?? VALID[f]}`);
  return `${space[2]}{${space[3]}${entries.join(`,${space[3]}`)}${space[3]}}${space[4]}`;
}

/** One record's text: its fields in some order (one maybe twice, one maybe missing, a stranger maybe), values and whitespace varied. */
const recordText = fc
  .record({
    order: fc.shuffledSubarray([...SUBJECT_FIELDS], { minLength: 9 }),
    keepOrder: fc.boolean(),
    changes: fc.dictionary(fc.constantFrom(...SUBJECT_FIELDS), fc.constantFrom(...EDGES), { maxKeys: 2 }),
    twice: fc.option(fc.constantFrom(...SUBJECT_FIELDS), { nil: undefined, freq: 8 }),
    stranger: fc.option(fc.constantFrom('"extra"', '"i\\u0064"', '"naziv_subjekt"', "id"), { nil: undefined, freq: 8 }),
    space: fc.array(fc.oneof({ arbitrary: fc.constantFrom(...SPACES), weight: 20 }, fc.constantFrom(...NOT_SPACES)), {
      minLength: 5,
      maxLength: 5,
    }),
  })
  .map(({ order, keepOrder, changes, twice, stranger, space }) => {
    const fields: string[] = keepOrder && order.length === SUBJECT_FIELDS.length ? [...SUBJECT_FIELDS] : order;
    if (twice !== undefined) fields.push(twice);
    const text = textOf(fields, changes, space);
    return stranger === undefined ? text : text.replace(",", `, ${stranger}: "x",`);
  });

/** The block rendered with plain records taken from their bytes, or every record parsed. */
function rendered(block: BlockText, plain: boolean, maxFieldLength?: number): ReturnType<BlockRenderer["finish"]> {
  const renderer = new BlockRenderer(file, false, maxFieldLength);
  const sink = { record: (value: unknown, position: number, source?: object) => renderer.add(value, position, source) };
  parseBlock(block, file, sink, renderer.problems, plain ? renderer.plainTaker() : undefined);
  return renderer.finish();
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe("plain records", () => {
  it("render a block as parsing every record does: bytes, keys, positions and problems", () => {
    fc.assert(
      fc.property(fc.array(recordText, { minLength: 1, maxLength: 6 }), fc.constantFrom(undefined, 12, 40), (texts, max) => {
        const block = blockOf(texts);
        expect(rendered(block, true, max)).toEqual(rendered(block, false, max));
      }),
      { numRuns: 4000 },
    );
  });

  it("render as parsing does with any one field's value at an edge, or any one space", () => {
    const texts: string[] = [];
    for (const field of SUBJECT_FIELDS) for (const edge of EDGES) texts.push(textOf(SUBJECT_FIELDS, { [field]: edge }, NO_SPACE));
    for (let slot = 0; slot < 5; slot++)
      for (const space of [...SPACES, ...NOT_SPACES]) texts.push(textOf(SUBJECT_FIELDS, {}, NO_SPACE.with(slot, space)));
    for (const max of [undefined, 12, 40])
      for (let k = 0; k < texts.length; k += 5) {
        const block = blockOf(texts.slice(k, k + 5));
        expect(rendered(block, true, max)).toEqual(rendered(block, false, max));
      }
  });

  it("are taken without a parse: any key order, diacritics, a quoted name, a backslash, past the BMP", () => {
    const texts = [
      `{${SUBJECT_FIELDS.map((f) => `"${f}": ${VALID[f]}`).join(", ")}}`,
      `\n {\n  ${[...SUBJECT_FIELDS]
        .reverse()
        .map((f) => `"${f}":\t${VALID[f]}`)
        .join(",\n  ")}\r\n }`,
      `{${SUBJECT_FIELDS.map((f) => `"${f}":${f === "naziv_subjekta" ? '"C:\\\\Škola \\"😀\\""' : VALID[f]}`).join(",")}}`,
    ];
    const parse = vi.spyOn(JSON, "parse");
    const block = rendered(blockOf(texts), true);
    expect(parse).not.toHaveBeenCalled();
    expect(block.ends.length).toBe(3);
    expect(Buffer.from(block.bytes).toString("utf8").split("\n")[2]).toBe(
      renderSubject({
        id: 7,
        jedinstvena_oznaka: "0007",
        naziv_subjekta: 'C:\\Škola "😀"',
        oib: "23557321379",
        razina: "lokalna",
        datum_postanka: "1966-05-14",
        status_subjekta: true,
        odobreno: false,
        institucija_grad: "Šibenik",
        institucija_email: "tajnistvo@dv-rabra.hr",
      }),
    );
  });

  it("count a field's length in UTF-16 units, as the bound on text fields does", () => {
    const name = (value: string): Buffer =>
      Buffer.from(`{${SUBJECT_FIELDS.map((f) => `"${f}":${f === "naziv_subjekta" ? value : VALID[f]}`).join(",")}}`);
    const plain = new PlainRecord();
    const scan = (bytes: Buffer, max: number): boolean => plain.scan(bytes, 0, bytes.length, max);
    // 31 characters, 32 units: 😀 is two (the other fields are shorter).
    const x = "x".repeat(30);
    expect(scan(name(`"${x}😀"`), 32)).toBe(true);
    expect(scan(name(`"${x}😀"`), 31)).toBe(false);
    // An escaped quote is one character.
    expect(scan(name(`"${x}\\"ž"`), 32)).toBe(true);
    expect(scan(name(`"${x}\\"ž"`), 31)).toBe(false);
  });
});
