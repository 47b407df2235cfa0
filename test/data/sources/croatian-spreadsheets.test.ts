/**
 * A spreadsheet's own words in Croatian: LibreOffice Calc in a Croatian locale (and Excel in
 * Croatian) saves a boolean cell into a CSV as TOČNO/NETOČNO. The CSV LibreOffice 7.4 wrote
 * (test/fixtures/croatian-libreoffice/libreoffice-hr.csv: four subjects of the sample exported by
 * `subjekti export`, converted under LANG=hr_HR.UTF-8 as "CSV UTF-8"; croatian-libreoffice.slow.test.ts
 * does it with the real program on the whole sample) builds the JSON's site byte for byte, without
 * a word said. A flag a person types (DA, 0) is refused, told the words that are read, in both
 * languages; a contact Calc typed as a number is refused with the OIB's help.
 */
import { copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../run-cli.ts";
import { snapshotTree, useTempDir } from "../../file-trees.ts";

const FIXTURE = "test/fixtures/croatian-libreoffice";
const work = useTempDir();
let jsonTree: Record<string, string>;

/** A data directory holding `files` (name: contents), with the sample's descriptor beside them. */
async function dataWith(name: string, files: Record<string, string | Buffer>): Promise<string> {
  const data = join(work.path, name);
  await mkdir(data);
  await copyFile("data/datapackage.json", join(data, "datapackage.json"));
  for (const [file, contents] of Object.entries(files)) await writeFile(join(data, file), contents);
  return data;
}

beforeAll(async () => {
  const data = await dataWith("json-data", { "subjekti.json": await readFile(join(FIXTURE, "subjekti.json")) });
  const out = join(work.path, "json");
  expect((await runCli(["build", "--data", data, "--out", out, "--no-cache"])).code).toBe(0);
  jsonTree = await snapshotTree(out);
});

describe("the CSV LibreOffice writes in a Croatian locale", () => {
  it("TOČNO/NETOČNO (every pair of the two flags) -> the JSON's site byte for byte, nothing said, --strict too, in both languages", async () => {
    const csv = await readFile(join(FIXTURE, "libreoffice-hr.csv"), "utf8");
    // The real bytes: the four pairs of flags in LibreOffice's Croatian words.
    for (const pair of ["TOČNO,TOČNO", "TOČNO,NETOČNO", "NETOČNO,TOČNO", "NETOČNO,NETOČNO"]) expect(csv).toContain(`,${pair},`);
    const data = await dataWith("csv-data", { "subjekti.csv": await readFile(join(FIXTURE, "libreoffice-hr.csv")) });
    for (const lang of ["en", "hr"]) {
      const out = join(work.path, `csv-${lang}`);
      const built = await runCli(["build", "--data", data, "--out", out, "--no-cache", "--strict", "--lang", lang]);
      expect({ code: built.code, stderr: built.stderr }).toEqual({ code: 0, stderr: "" });
      expect(await snapshotTree(out)).toEqual(jsonTree);
    }
  });

  it("točno and Netočno in any case, and TRUE beside them -> read as the same flags", async () => {
    const csv = (await readFile(join(FIXTURE, "libreoffice-hr.csv"), "utf8"))
      .replace(",TOČNO,TOČNO,", ",točno,TRUE,")
      .replace(",NETOČNO,NETOČNO,", ",Netočno,false,");
    const data = await dataWith("mixed-data", { "subjekti.csv": csv });
    const out = join(work.path, "mixed");
    expect((await runCli(["build", "--data", data, "--out", out, "--no-cache", "--strict"])).code).toBe(0);
    expect(await snapshotTree(out)).toEqual(jsonTree);
  });
});

describe("a flag typed by hand", () => {
  it("DA and 0 -> refused, each told the words that are read, in English and Croatian; nothing written", async () => {
    const csv = (await readFile(join(FIXTURE, "libreoffice-hr.csv"), "utf8"))
      .replace(",TOČNO,TOČNO,", ",DA,TOČNO,")
      .replace(",TOČNO,NETOČNO,", ",TOČNO,0,");
    const data = await dataWith("typed-data", { "subjekti.csv": csv });
    const file = `${data}/subjekti.csv`;
    const english = await runCli(["validate", "--data", data]);
    expect(english.code).toBe(1);
    expect(english.stderr.trimEnd().split("\n")).toEqual([
      `${file}:2: status_subjekta: expected true or false, got "DA" (write TRUE or FALSE (or TOČNO or NETOČNO))`,
      `${file}:3: odobreno: expected true or false, got "0" (write TRUE or FALSE (or TOČNO or NETOČNO))`,
      "subjekti: 2 errors in the data; nothing was written",
    ]);
    const croatian = await runCli(["validate", "--data", data], { LANG: "hr_HR.UTF-8" });
    expect(croatian.stderr.trimEnd().split("\n")).toEqual([
      `${file}:2: status_subjekta: očekuje se true ili false, a nađeno je "DA" (napišite TOČNO ili NETOČNO (ili TRUE ili FALSE))`,
      `${file}:3: odobreno: očekuje se true ili false, a nađeno je "0" (napišite TOČNO ili NETOČNO (ili TRUE ili FALSE))`,
      "subjekti: 2 greške u podacima; ništa nije zapisano",
    ]);
  });
});

describe("a number cell where text is expected", () => {
  // test/fixtures/croatian-libreoffice/number-contact.xlsx: two subjects of the sample as CSV, opened
  // by LibreOffice Calc in a Croatian locale and saved as .xlsx; Calc typed every cell of digits as a
  // number: the codes, the OIBs and one contact (id 5534's is its OIB, 83524136224).
  it("a contact of digits in a number cell -> an error with the OIB's help (format the column as text), in English and Croatian", async () => {
    const data = await dataWith("number-contact", { "subjekti.xlsx": await readFile(join(FIXTURE, "number-contact.xlsx")) });
    const cell = `${data}/subjekti.xlsx!subjekti!J3`;
    const english = await runCli(["validate", "--data", data]);
    expect(english.code).toBe(1);
    expect(english.stderr).toContain(
      `\n${cell}: institucija_email: expected a string, got 83524136224 (a spreadsheet wrote it as a number: format the column as text)\n`,
    );
    const croatian = await runCli(["validate", "--data", data, "--lang", "hr"]);
    expect(croatian.stderr).toContain(
      `\n${cell}: institucija_email: očekuje se tekst, a nađeno je 83524136224 (tablica ga je zapisala kao broj: oblikujte stupac kao tekst)\n`,
    );
    expect(croatian.stderr).toMatch(/subjekti: 1 greška u podacima; ništa nije zapisano\n$/);
  });
});

describe("adding an institution", () => {
  it("a new row without an id and code -> told the next free id and code (after the highest, codes rising with ids), in English and Croatian", async () => {
    const csv = `${await readFile(join(FIXTURE, "libreoffice-hr.csv"), "utf8")},,"Novi dječji vrtić","69435151530","lokalna","2024-01-15",TOČNO,NETOČNO,"Zagreb","vrtic@example.hr"\n`;
    const data = await dataWith("new-row", { "subjekti.csv": csv });
    const row = `${data}/subjekti.csv:6`;
    const english = await runCli(["validate", "--data", data]);
    expect(english.stderr.trimEnd().split("\n")).toEqual([
      `${row}: id: expected an integer ≥ 1, got "" (a new subject? the next free id is 889 and code 0691: codes rise with ids)`,
      `${row}: jedinstvena_oznaka: expected at least 4 digits (zero-padded), got "" (a new subject? the next free id is 889 and code 0691: codes rise with ids)`,
      "subjekti: 2 errors in the data; nothing was written",
    ]);
    const croatian = await runCli(["validate", "--data", data, "--lang", "hr"]);
    expect(croatian.stderr.trimEnd().split("\n")).toEqual([
      `${row}: id: očekuje se cijeli broj ≥ 1, a nađeno je "" (novi subjekt? sljedeći slobodni id je 889, a oznaka 0691: oznake rastu s id-om)`,
      `${row}: jedinstvena_oznaka: očekuje se najmanje 4 znamenke (s vodećim nulama), a nađeno je "" (novi subjekt? sljedeći slobodni id je 889, a oznaka 0691: oznake rastu s id-om)`,
      "subjekti: 2 greške u podacima; ništa nije zapisano",
    ]);
    // The keys it was told are free: the row builds.
    const ok = await dataWith("new-row-fixed", { "subjekti.csv": csv.replace(',,"Novi', '889,"0691","Novi') });
    expect(await runCli(["validate", "--data", ok, "--strict"])).toMatchObject({ code: 0, stderr: "" });
  });

  it("--json keeps the keys and the free id and code as parameters", async () => {
    const csv = `${await readFile(join(FIXTURE, "libreoffice-hr.csv"), "utf8")},,"Novi","69435151530","lokalna","2024-01-15",TOČNO,TOČNO,"Zagreb",""\n`;
    const data = await dataWith("new-row-json", { "subjekti.csv": csv });
    const [first] = (await runCli(["validate", "--data", data, "--json"])).stdout.trimEnd().split("\n");
    expect(JSON.parse(first ?? "")).toMatchObject({ field: "id", hint: { key: "hint.next-keys", params: { id: 889, code: "0691" } } });
  });
});
