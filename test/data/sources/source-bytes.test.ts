/**
 * The bytes of a source: valid UTF-8 or a located error (line, column, the bytes in hex), with the
 * Windows-1250 hint when that is what the file is; `--encoding` reads such a CSV; a lone
 * surrogate is refused; and a build with such an error leaves the site untouched.
 */
import { isUtf8 } from "node:buffer";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, test } from "vitest";
import { Utf8Check } from "../../../src/data/sources/decode-source.ts";
import { DataError, formatProblem } from "../../../src/data/problems/problems.ts";
import { tempDir } from "../../file-trees.ts";
import { expectBuildLeavesSiteUnchanged, readOrProblems, readSubjects } from "../read-subjects.ts";

const HEADER = "id;jedinstvena_oznaka;naziv_subjekta;oib;razina;datum_postanka;status_subjekta;odobreno;institucija_grad;institucija_email";
const ROWS = [
  "1;0001;Aerodrom Sopot d.o.o. za prijevoz putnika i robe u zračnom prometu;23557321379;lokalna;1966-05-14;true;true;Vinkovci;info@sopot.hr",
  "2;0002;Općina Pakoštane;56396370038;lokalna;2015-04-18;true;false;Pakoštane;opcina@pakostane.hr",
];

/** Text as Windows-1250 bytes (what Excel's plain "CSV" writes on a Croatian Windows). */
function windows1250(text: string): Buffer {
  const decoder = new TextDecoder("windows-1250");
  const byChar = new Map<string, number>();
  for (let b = 0; b < 256; b++) byChar.set(decoder.decode(Uint8Array.of(b)), b);
  return Buffer.from(Array.from(text, (c) => byChar.get(c) ?? 0x3f));
}

async function dirWith(name: string, bytes: Buffer | string): Promise<string> {
  const dir = await tempDir();
  await writeFile(join(dir, name), bytes);
  return dir;
}

describe("source bytes", () => {
  test("a Windows-1250 CSV -> every bad byte located by line and column, in hex, with the Windows-1250 hint; the site untouched", async () => {
    const dir = await dirWith("subjekti.csv", windows1250([HEADER, ...ROWS].join("\r\n")));
    const fix = 'save it from Excel as "CSV UTF-8", or build with --encoding windows-1250';
    const { errorLines } = await readOrProblems(dir);
    expect(errorLines).toEqual([
      `${dir}/subjekti.csv:2:62: expected UTF-8 text, got the byte E8 (the file looks like Windows-1250: "zračnom" — ${fix})`,
      `${dir}/subjekti.csv:3:10: expected UTF-8 text, got the byte E6 (the file looks like Windows-1250: "Općina" — ${fix})`,
      `${dir}/subjekti.csv:3:19: expected UTF-8 text, got the byte 9A (the file looks like Windows-1250: "Pakoštane" — ${fix})`,
      `${dir}/subjekti.csv:3:71: expected UTF-8 text, got the byte 9A (the file looks like Windows-1250: "Pakoštane" — ${fix})`,
    ]);
    await expectBuildLeavesSiteUnchanged(dir);
  });

  test("the same CSV with --encoding windows-1250 -> the letters as written", async () => {
    const dir = await dirWith("subjekti.csv", windows1250([HEADER, ...ROWS].join("\r\n")));
    const utf8 = await dirWith("subjekti.csv", [HEADER, ...ROWS].join("\r\n"));
    const { subjects } = await readSubjects({ dataDir: dir, strict: false, encoding: "windows-1250" });
    expect(subjects).toEqual((await readSubjects({ dataDir: utf8, strict: false })).subjects);
    expect(subjects[1]?.institucija_grad).toBe("Pakoštane");
  });

  test("--encoding shift_jis on bytes it has no character for -> an error, never U+FFFD", async () => {
    const dir = await dirWith("s.csv", Buffer.concat([Buffer.from(`${HEADER}\n1;`), Buffer.from([0x81, 0x40, 0xff]), Buffer.from("\n")]));
    const error = await readSubjects({ dataDir: dir, strict: false, encoding: "shift_jis" }).catch((e: unknown) => e);
    expect((error as DataError).problems.map(formatProblem)).toEqual([
      `${dir}/s.csv:1: expected shift_jis text (bytes this encoding has no character for, on this line or the next: is --encoding right?)`,
    ]);
  });

  test("a JSON array with a stray byte (a cut Ž) -> located by line and column; the site untouched", async () => {
    const record = {
      id: 1,
      jedinstvena_oznaka: "0001",
      naziv_subjekta: "Grad @x",
      oib: "23557321379",
      razina: "lokalna",
      datum_postanka: "1966-05-14",
      status_subjekta: true,
      odobreno: true,
      institucija_grad: "Labin",
      institucija_email: "",
    };
    const text = JSON.stringify([record], null, 2);
    const bytes = Buffer.from(text);
    bytes[bytes.indexOf("@")] = 0xc5;
    const dir = await dirWith("subjekti.json", bytes);
    const { errorLines } = await readOrProblems(dir);
    expect(errorLines).toEqual([`${dir}/subjekti.json:5:29: expected UTF-8 text, got the byte C5 (save the file as UTF-8)`]);
    await expectBuildLeavesSiteUnchanged(dir);
  });

  test("an NDJSON line with a bad byte -> located", async () => {
    const dir = await dirWith(
      "s.ndjson",
      Buffer.concat([Buffer.from('{"id": 1, "naziv_subjekta": "A'), Buffer.from([0xff]), Buffer.from('"}\n')]),
    );
    const { errorLines } = await readOrProblems(dir);
    expect(errorLines?.filter((l) => l.includes("UTF-8"))).toEqual([
      `${dir}/s.ndjson:1:31: expected UTF-8 text, got the byte FF (save the file as UTF-8)`,
    ]);
  });

  test('a lone surrogate ("\\ud800" in JSON) -> an error naming the record and the field', async () => {
    const dir = await dirWith(
      "subjekti.json",
      String.raw`[{"id": 1, "jedinstvena_oznaka": "0001", "naziv_subjekta": "A\ud800B", "oib": "23557321379", "razina": "lokalna",
      "datum_postanka": "1966-05-14", "status_subjekta": true, "odobreno": true, "institucija_grad": "Labin", "institucija_email": ""}]`,
    );
    const { errorLines } = await readOrProblems(dir);
    expect(errorLines).toEqual([
      `${dir}/subjekti.json[0]: naziv_subjekta: expected text of whole characters, got "A\\ud800B" (a lone surrogate \\ud800: a character cut in half?)`,
    ]);
    await expectBuildLeavesSiteUnchanged(dir);
  });

  test("UTF-8 checked chunk by chunk agrees with checking the whole, wherever the chunks split a character", () => {
    const text = fc.string({ unit: "binary", maxLength: 40 }).map((s) => Buffer.from(s));
    const bytes = fc.oneof(
      text,
      fc.uint8Array({ maxLength: 40 }).map((a) => Buffer.from(a)),
    );
    fc.assert(
      fc.property(bytes, fc.array(fc.nat(40), { maxLength: 6 }), (all, cuts) => {
        const check = new Utf8Check();
        let from = 0;
        for (const cut of [...cuts].sort((a, b) => a - b)) {
          const to = Math.min(cut, all.length);
          check.push(all.subarray(from, to));
          from = Math.max(from, to);
        }
        check.push(all.subarray(from));
        check.end();
        expect(check.valid).toBe(isUtf8(all));
      }),
    );
  });
});
