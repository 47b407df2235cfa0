/**
 * The maintainer's language, through the CLI: the same problems, summaries and errors in English
 * and Croatian (by --lang, by LANG), exact lines; --json the same in both. And the rules that span
 * records, as a maintainer meets them: a source that repeats another in one line, two subjects with
 * one OIB, a date error and a duplicate code in one run, a date cell shown as a date.
 */
import { copyFile, mkdir, mkdtemp, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { loadExcelJs } from "../load-exceljs.ts";
import { runCli } from "../run-cli.ts";
import { useTempDir } from "../file-trees.ts";
import { BASE_SUBJECTS, sourceText, writeSource } from "../data/read-subjects.ts";

const BAD = "test/fixtures/bad-many";
const work = useTempDir();
/** A directory of its own for one test, inside the file's temporary directory (removed after). */
const fresh = (): Promise<string> => mkdtemp(join(work.path, "language-"));

describe("problems, summaries and errors in the maintainer's language", () => {
  const ENGLISH = [
    `${BAD}/a.json[0]: oib: expected 11 digits, got "123" (3 digits)`,
    `${BAD}/a.json[1]: datum_postanka: expected a real date YYYY-MM-DD, got "2015-13-01" (there is no month 13)`,
    `${BAD}/a.json[1]: status_subjekta: expected true or false, got "false" (a string: write false without quotes)`,
    `${BAD}/b.csv:2: naziv_subjekta: expected a non-empty name, got ""`,
    `${BAD}/b.csv:2: razina: expected a lowercase word, got "Nacionalna" (write it in lowercase: nacionalna)`,
    `${BAD}/c.ndjson:1: warning: institucija_grad: expected a city, got "" (published empty)`,
    "subjekti: 5 errors in the data; nothing was written",
  ];
  const CROATIAN = [
    `${BAD}/a.json[0]: oib: očekuje se 11 znamenaka, a nađeno je "123" (3 znamenke)`,
    `${BAD}/a.json[1]: datum_postanka: očekuje se stvaran datum GGGG-MM-DD, a nađeno je "2015-13-01" (mjesec 13 ne postoji)`,
    `${BAD}/a.json[1]: status_subjekta: očekuje se true ili false, a nađeno je "false" (tekst: napišite false bez navodnika)`,
    `${BAD}/b.csv:2: naziv_subjekta: očekuje se naziv koji nije prazan, a nađeno je ""`,
    `${BAD}/b.csv:2: razina: očekuje se jedna riječ malim slovima, a nađeno je "Nacionalna" (napišite malim slovima: nacionalna)`,
    `${BAD}/c.ndjson:1: upozorenje: institucija_grad: očekuje se grad, a nađeno je "" (objavljuje se prazno)`,
    "subjekti: 5 grešaka u podacima; ništa nije zapisano",
  ];
  const lines = (text: string): string[] => text.trimEnd().split("\n");

  it("no locale -> English; --lang hr, LANG=hr_HR.UTF-8 and LC_ALL=hr_HR -> Croatian, line for line", async () => {
    expect(lines((await runCli(["validate", "--data", BAD])).stderr)).toEqual(ENGLISH);
    expect(lines((await runCli(["validate", "--data", BAD, "--lang", "hr"])).stderr)).toEqual(CROATIAN);
    expect(lines((await runCli(["--lang=hr", "validate", "--data", BAD])).stderr)).toEqual(CROATIAN);
    expect(lines((await runCli(["validate", "--data", BAD], { LANG: "hr_HR.UTF-8" })).stderr)).toEqual(CROATIAN);
    expect(lines((await runCli(["validate", "--data", BAD], { LC_ALL: "hr_HR", LANG: "en_US.UTF-8" })).stderr)).toEqual(CROATIAN);
    expect(lines((await runCli(["validate", "--data", BAD, "--lang", "en"], { LANG: "hr_HR.UTF-8" })).stderr)).toEqual(ENGLISH);
  });

  it("--json is language-neutral: the same stable keys whatever the language", async () => {
    const english = await runCli(["validate", "--data", BAD, "--json"]);
    const croatian = await runCli(["validate", "--data", BAD, "--json"], { LANG: "hr_HR.UTF-8" });
    expect(croatian.stdout).toBe(english.stdout);
    expect(JSON.parse(lines(english.stdout)[1] ?? "")).toMatchObject({
      field: "datum_postanka",
      expected: { key: "expected.date" },
      hint: { key: "hint.no-month", params: { month: "13" } },
    });
  });

  it("the summary of a valid read, with Croatian plurals and numbers", async () => {
    expect((await runCli(["validate", "--data", "data"])).stdout).toBe("5758 subjects in 1 file: valid (14 warnings)\n");
    expect((await runCli(["validate", "--data", "data", "--lang", "hr"])).stdout).toBe(
      "5.758 subjekata u 1 datoteci: ispravno (14 upozorenja)\n",
    );
  });

  it("a many-of-a-kind summary: the more line and the table of kinds", async () => {
    const { stderr } = await runCli(["validate", "--data", "data", "--lang", "hr"]);
    expect(stderr).toContain(
      "… i još 9 takvih: upozorenje: oib: očekuje se ispravna kontrolna znamenka (ISO 7064 MOD 11,10)\nproblemi po vrsti:\n  14  upozorenje  oib  očekuje se ispravna kontrolna znamenka (ISO 7064 MOD 11,10)\n",
    );
  });

  it("a CLI error in both languages, one line, exit 1", async () => {
    const file = "data/subjekti.json";
    expect(await runCli(["validate", "--data", file])).toMatchObject({
      code: 1,
      stderr: `subjekti: --data ${file} is a file: pass the directory that holds the *.json, *.ndjson, *.csv, *.xlsx and *.ods files\n`,
    });
    expect(await runCli(["validate", "--data", file, "--lang", "hr"])).toMatchObject({
      code: 1,
      stderr: `subjekti: --data ${file} je datoteka: zadajte mapu s datotekama *.json, *.ndjson, *.csv, *.xlsx i *.ods\n`,
    });
  });
});

describe("the rules across records, as a maintainer meets them", () => {
  let sampleWithWorkbook: string;
  beforeAll(async () => {
    const work = await fresh();
    sampleWithWorkbook = join(work, "data");
    await mkdir(sampleWithWorkbook);
    await copyFile("data/subjekti.json", join(sampleWithWorkbook, "subjekti.json"));
    expect((await runCli(["export", "--data", "data", "--out", join(work, "subjekti.xlsx")])).code).toBe(0);
    await copyFile(join(work, "subjekti.xlsx"), join(sampleWithWorkbook, "subjekti.xlsx"));
  }, 120_000);

  it("a workbook beside the JSON it was exported from -> one line naming both (not 5,758 duplicate ids), in both languages", async () => {
    const [json, xlsx] = [join(sampleWithWorkbook, "subjekti.json"), join(sampleWithWorkbook, "subjekti.xlsx")];
    const english = await runCli(["validate", "--data", sampleWithWorkbook]);
    expect(english.code).toBe(1);
    expect(english.stderr).toContain(`\n${xlsx} repeats every record of ${json}: keep one\n`);
    expect(english.stderr).not.toContain("a unique id");
    expect(english.stderr).toMatch(/subjekti: 1 error in the data; nothing was written\n$/);
    const croatian = await runCli(["validate", "--data", sampleWithWorkbook, "--lang", "hr"]);
    expect(croatian.stderr).toContain(`\n${xlsx} ponavlja svaki zapis iz ${json}: zadržite jedan\n`);
    expect(croatian.stderr).toMatch(/subjekti: 1 greška u podacima; ništa nije zapisano\n$/);
  }, 120_000);

  it("the same institution entered twice (a new id and code, the same OIB) -> a warning naming both", async () => {
    const twice = { ...BASE_SUBJECTS[0], id: 4, jedinstvena_oznaka: "0004" };
    const dir = await writeSource([...BASE_SUBJECTS, twice], "json");
    const english = await runCli(["validate", "--data", dir]);
    expect(english.code).toBe(0);
    expect(english.stderr).toBe(
      `${dir}/subjekti.json[3]: warning: oib: expected an OIB no other subject has, got "23557321379" (id 4 (code 0004) and id 1 (code 0001, at ${dir}/subjekti.json[0]) have the same OIB: the same institution twice?)\n`,
    );
    const croatian = await runCli(["validate", "--data", dir, "--lang", "hr"]);
    expect(croatian.stderr).toBe(
      `${dir}/subjekti.json[3]: upozorenje: oib: očekuje se OIB koji nema nijedan drugi subjekt, a nađeno je "23557321379" (id 4 (oznaka 0004) i id 1 (oznaka 0001, na ${dir}/subjekti.json[0]) imaju isti OIB: ista ustanova dvaput?)\n`,
    );
    expect((await runCli(["validate", "--data", dir, "--strict"])).code).toBe(1);
  });

  it("a record with a date error whose code repeats another's -> both problems in one run", async () => {
    const records = [BASE_SUBJECTS[0], { ...BASE_SUBJECTS[1], datum_postanka: "2020-02-30", jedinstvena_oznaka: "0001" }, BASE_SUBJECTS[2]];
    const dir = await writeSource(records as Record<string, unknown>[], "json");
    const { code, stderr } = await runCli(["validate", "--data", dir]);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split("\n")).toEqual([
      `${dir}/subjekti.json[1]: datum_postanka: expected a real date YYYY-MM-DD, got "2020-02-30" (February 2020 has 29 days)`,
      `${dir}/subjekti.json[1]: jedinstvena_oznaka: expected a unique value, got "0001" ("0001" is also id 1's, at ${dir}/subjekti.json[0])`,
      "subjekti: 2 errors in the data; nothing was written",
    ]);
  });

  it("a date cell where text belongs -> shown as the date 1999-12-31, never 1999-12-31T00:00:00.000Z", async () => {
    const dir = await fresh();
    const workbook = new (loadExcelJs().Workbook)();
    const sheet = workbook.addWorksheet("subjekti");
    const [header, ...rows] = sourceText(BASE_SUBJECTS, "csv")
      .trimEnd()
      .split("\n")
      .map((line) => line.split(","));
    sheet.addRow(header as string[]);
    for (const row of rows)
      sheet.addRow(row.map((cell, i) => (i === 0 ? Number(cell) : cell === "true" ? true : cell === "false" ? false : cell)));
    sheet.getCell("C2").value = new Date(Date.UTC(1999, 11, 31));
    await workbook.xlsx.writeFile(join(dir, "subjekti.xlsx"));
    const { stderr } = await runCli(["validate", "--data", dir]);
    expect(stderr).toContain(`${dir}/subjekti.xlsx!subjekti!C2: naziv_subjekta: expected a non-empty name, got 1999-12-31\n`);
    expect(stderr).not.toContain("T00:00:00");
  });
});

describe("what the tool says of the run and the machine, in both languages", () => {
  const three = (): Promise<string> => writeSource(BASE_SUBJECTS.slice(0, 3), "json");

  it("a build whose data declares no licence -> the warning, then the build", async () => {
    const data = await three();
    const out = join(await fresh(), "site");
    const warning = (await runCli(["build", "--data", data, "--out", out, "--quiet", "--no-cache"])).stderr;
    expect(warning).toBe(
      'subjekti: warning: no licence is declared: the published description (the landing page, datapackage.json, the DCAT catalogue) names none; add datapackage.json with "licenses" to the data directory (docs/open-data.md)\n',
    );
    const croatian = await runCli(["build", "--data", data, "--out", out, "--quiet", "--no-cache", "--lang", "hr"]);
    expect(croatian).toMatchObject({
      code: 0,
      stderr:
        'subjekti: upozorenje: licenca nije navedena: objavljeni opis (naslovna stranica, datapackage.json, DCAT katalog) ne navodi nijednu; dodajte datapackage.json s "licenses" u mapu podataka (docs/open-data.md)\n',
    });
  });

  it("an output another build is writing -> one line naming the holder, exit 1", async () => {
    const data = await three();
    const here = await fresh();
    const since = "2026-11-25T00:00:00.000Z";
    await writeFile(join(here, ".site.lock"), JSON.stringify({ pid: process.pid, host: hostname(), command: "build", since }));
    const out = join(here, "site");
    const english = await runCli(["build", "--data", data, "--out", out, "--quiet"]);
    expect(english).toMatchObject({
      code: 1,
      stderr: `subjekti: --out ${out} is being written by process ${process.pid} (subjekti build since ${since}): wait for it to finish, or pass --wait to wait for it\n`,
    });
    const croatian = await runCli(["build", "--data", data, "--out", out, "--quiet", "--lang", "hr"]);
    expect(croatian).toMatchObject({
      code: 1,
      stderr: `subjekti: --out ${out} upravo piše proces ${process.pid} (subjekti build od ${since}): pričekajte da završi ili zadajte --wait da se pričeka\n`,
    });
  });

  it("a machine error (a file where --out's directory belongs) -> one line naming the place, exit 1", async () => {
    const data = await three();
    const file = join(await fresh(), "file");
    await writeFile(file, "x");
    const english = await runCli(["build", "--data", data, "--out", join(file, "site"), "--quiet", "--no-cache"]);
    expect(english).toMatchObject({
      code: 1,
      stderr: `subjekti: ${file}: a file where a directory belongs; remove it or pick another directory\n`,
    });
    const croatian = await runCli(["build", "--data", data, "--out", join(file, "site"), "--quiet", "--no-cache", "--lang", "hr"]);
    expect(croatian).toMatchObject({
      code: 1,
      stderr: `subjekti: ${file}: datoteka na mjestu gdje treba biti mapa; uklonite je ili odaberite drugu mapu\n`,
    });
  });
});

describe("the maintainer's day in Croatian: export's refusals, the known warnings, a header problem", () => {
  it("export refuses an --out inside --data, a missing directory and an extension not the format's, each in one Croatian line", async () => {
    const here = await fresh();
    expect(await runCli(["export", "--data", "data", "--out", "data/x.xlsx", "--lang", "hr"])).toMatchObject({
      code: 1,
      stderr:
        "subjekti: --out data/x.xlsx je unutar --data data: sljedeća bi ga izgradnja čitala uz izvore iz kojih je nastao, svaki zapis dvaput; izvezite ga drugdje pa njime zamijenite izvore (subjekti export --out x.xlsx, zatim ga premjestite u data i uklonite izvore koje zamjenjuje)\n",
    });
    expect(await runCli(["export", "--data", "data", "--out", join(here, "missing", "x.xlsx"), "--lang", "hr"])).toMatchObject({
      code: 1,
      stderr: `subjekti: --out ${join(here, "missing", "x.xlsx")}: mapa ${join(here, "missing")} ne postoji: napravite je ili zadajte drugi --out\n`,
    });
    const format = await runCli(["export", "--data", "data", "--out", join(here, "x.csv"), "--format", "xlsx", "--lang", "hr"]);
    expect(format.code).toBe(2);
    expect(format.stderr).toMatch(
      new RegExp(
        `^greška: --out ${join(here, "x.csv")} ne završava s \\.xlsx, a --format xlsx piše taj oblik: izgradnja bi ga čitala kao \\.csv; nazovite ga \\.xlsx\\n`,
      ),
    );
  });

  it("validate --accept, then the known warnings counted in one line and the summary, in Croatian", async () => {
    const data = join(await fresh(), "data");
    await mkdir(data);
    await copyFile("data/subjekti.json", join(data, "subjekti.json"));
    const known = join(data, "known-problems.json");
    expect((await runCli(["validate", "--data", data, "--accept", "--lang", "hr"])).stdout).toBe(
      `14 upozorenja prihvaćeno kao poznato u ${known}: pregledajte datoteku i predajte je (commit) zajedno s podacima\n`,
    );
    expect(await runCli(["validate", "--data", data, "--lang", "hr"])).toMatchObject({
      code: 0,
      stderr: `14 poznatih upozorenja, prihvaćenih u ${known} (nisu ispisana; subjekti validate --accept bilježi trenutačna)\n`,
      stdout: "5.758 subjekata u 1 datoteci: ispravno (0 novih upozorenja, 14 poznatih)\n",
    });
    // A mistyped OIB after the baseline: printed first and in full, the known ones counted; --strict fails on it alone.
    const list = JSON.parse(await readFile(join(data, "subjekti.json"), "utf8")) as { oib: string }[];
    const oib = (list[100] as { oib: string }).oib;
    const typo = oib.slice(0, 10) + String((Number(oib[10]) + 1) % 10);
    (list[100] as { oib: string }).oib = typo;
    await writeFile(join(data, "subjekti.json"), JSON.stringify(list));
    const newLine = `${data}/subjekti.json[100]: upozorenje: oib: očekuje se ispravna kontrolna znamenka (ISO 7064 MOD 11,10), a nađeno je "${typo}" (posljednja znamenka trebala bi biti ${oib[10]} — tipfeler?)`;
    const knownLine = `14 poznatih upozorenja, prihvaćenih u ${known} (nisu ispisana; subjekti validate --accept bilježi trenutačna)`;
    expect(await runCli(["validate", "--data", data, "--lang", "hr"])).toMatchObject({
      code: 0,
      stderr: `${newLine}\n${knownLine}\n`,
      stdout: "5.758 subjekata u 1 datoteci: ispravno (1 novo upozorenje, 14 poznatih)\n",
    });
    expect(await runCli(["validate", "--data", data, "--strict"], { LANG: "hr_HR.UTF-8" })).toMatchObject({
      code: 1,
      stderr: `${newLine.replace("upozorenje: ", "")}\nsubjekti: 1 greška u podacima; ništa nije zapisano\n`,
      stdout: "",
    });
  });
});

describe("every problem at once, in Croatian", () => {
  it("an unknown and a misspelt column with their hints, and the rows still read: the date error in the same run", async () => {
    const [first] = BASE_SUBJECTS;
    if (first === undefined) throw new Error("no subject");
    const fields = Object.keys(first);
    const header = [...fields.map((f) => (f === "oib" ? "OIB" : f)), "napomena"];
    const rows = [
      [...fields.map((f) => first[f]), "provjeriti"],
      [...fields.map((f) => ({ ...first, id: 3, jedinstvena_oznaka: "0003", datum_postanka: "2023-02-30" })[f]), ""],
    ];
    const dir = await fresh();
    await writeFile(join(dir, "x.csv"), [header, ...rows].map((row) => row.map(String).join(";")).join("\r\n"));
    const { code, stderr } = await runCli(["validate", "--data", dir, "--lang", "hr"]);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split("\n")).toEqual([
      `${dir}/x.csv:1: OIB: očekuje se jedan od deset naziva polja kao stupac (jeste li mislili oib? preimenujte stupac)`,
      `${dir}/x.csv:1: napomena: očekuje se jedan od deset naziva polja kao stupac (obrišite stupac ili ga preimenujte u jedan od naziva ${fields.join(", ")})`,
      `${dir}/x.csv:3: datum_postanka: očekuje se stvaran datum GGGG-MM-DD, a nađeno je "2023-02-30" (veljača 2023. ima 28 dana)`,
      "subjekti: 3 greške u podacima; ništa nije zapisano",
    ]);
  });

  it("a workbook's OIBs in number cells (zeros could be lost) -> a warning in each language, an error under --strict; its date cells silent", async () => {
    const ExcelJS = await loadExcelJs();
    const dir = await fresh();
    const workbook = new ExcelJS.Workbook();
    const sheet = workbook.addWorksheet("subjekti");
    const fields = Object.keys(BASE_SUBJECTS[0] ?? {}) as (keyof (typeof BASE_SUBJECTS)[number])[];
    sheet.addRow(fields);
    for (const s of BASE_SUBJECTS.slice(0, 2)) {
      sheet.addRow(fields.map((f) => (f === "oib" ? Number(s[f]) : f === "datum_postanka" ? new Date(`${String(s[f])}T00:00:00Z`) : s[f])));
    }
    await workbook.xlsx.writeFile(join(dir, "subjekti.xlsx"));
    const file = `${dir}/subjekti.xlsx`;
    const oib = String(BASE_SUBJECTS[0]?.oib);
    expect(await runCli(["validate", "--data", dir])).toMatchObject({
      code: 0,
      stdout: "2 subjects in 1 file: valid (2 warnings)\n",
      stderr:
        `${file}!subjekti!D2: warning: oib: 2 × an OIB in a number cell: expected 11 digits in a text cell, got ${oib} (read as "${oib}"; format the column as text to keep the zeros); also ${file}!subjekti!D3\n` +
        "problems by kind:\n  2  warning  oib  an OIB in a number cell (expected 11 digits in a text cell)\n",
    });
    expect(await runCli(["validate", "--data", dir, "--lang", "hr"])).toMatchObject({
      code: 0,
      stdout: "2 subjekta u 1 datoteci: ispravno (2 upozorenja)\n",
      stderr:
        `${file}!subjekti!D2: upozorenje: oib: 2 × OIB u brojčanoj ćeliji: očekuje se 11 znamenaka u tekstnoj ćeliji, a nađeno je ${oib} (pročitano kao "${oib}"; oblikujte stupac kao tekst da se nule sačuvaju); također ${file}!subjekti!D3\n` +
        "problemi po vrsti:\n  2  upozorenje  oib  OIB u brojčanoj ćeliji (očekuje se 11 znamenaka u tekstnoj ćeliji)\n",
    });
    expect(await runCli(["validate", "--data", dir, "--strict", "--lang", "hr"])).toMatchObject({
      code: 1,
      stderr: expect.stringMatching(
        /\n {2}2 {2}greška {2}oib {2}OIB u brojčanoj ćeliji \(očekuje se 11 znamenaka u tekstnoj ćeliji\)\nsubjekti: 2 greške u podacima; ništa nije zapisano\n$/,
      ),
    });
  });

  it("what changed in subjects since the last build, in Croatian: added, removed and changed with their plural forms", async () => {
    const [a, b, c] = BASE_SUBJECTS;
    if (a === undefined || b === undefined || c === undefined) throw new Error("three subjects expected");
    const out = join(await fresh(), "site");
    const first = await runCli(["build", "--data", await writeSource([a, b, c], "json"), "--out", out, "--lang", "hr"]);
    expect(first.stdout).toContain(
      "\npromjene: novi slijed promjena počinje brojem 1 (prethodno stanje nije nađeno: --previous <url> nastavlja slijed objavljenog mrežnog sjedišta)\n",
    );
    const second = await runCli([
      "build",
      "--data",
      await writeSource([a, { ...b, naziv_subjekta: "Novo ime" }], "json"),
      "--out",
      out,
      "--lang",
      "hr",
    ]);
    expect(second.stdout).toMatch(
      /\nsubjekti od prošle izgradnje: 0 dodanih, 1 uklonjen, 1 promijenjen \(slijed promjena: broj 1 -> 2, razlika [^)]+\)\n/,
    );
  });
});
