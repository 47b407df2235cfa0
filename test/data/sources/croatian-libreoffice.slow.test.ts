/**
 * The clerk's round trip with the real program: the sample exported by `subjekti export`, opened by
 * LibreOffice Calc in a Croatian locale (LANG=hr_HR.UTF-8) and saved as "CSV UTF-8", which writes
 * every flag as TOČNO or NETOČNO, builds the JSON's site byte for byte with the JSON's 14 warnings
 * and nothing more (it once gave 11,516 errors, `očekuje se true ili false, a nađeno je "TOČNO"`).
 * croatian-spreadsheets.test.ts reads the bytes LibreOffice wrote, committed, on every run.
 *
 * Without soffice the test skips, saying so, unless SUBJEKTI_REQUIRE_LIBREOFFICE=1 (CI installs
 * Debian's libreoffice-calc-nogui), where that is a failure.
 */
import { spawnSync } from "node:child_process";
import { copyFile, mkdir, readFile, rename } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { runCli } from "../../run-cli.ts";
import { snapshotTree, useTempDir } from "../../file-trees.ts";

const SOFFICE = spawnSync("soffice", ["--version"]).status === 0 ? "soffice" : null;
const REQUIRE = process.env["SUBJEKTI_REQUIRE_LIBREOFFICE"] === "1";
if (SOFFICE === null && !REQUIRE)
  console.warn("LibreOffice test skipped: no soffice (apt-get install --no-install-recommends libreoffice-calc-nogui)");

const work = useTempDir();
/** LibreOffice's CSV filter options: `,` between cells, `"` around text, UTF-8 (76), from the first row: its "CSV UTF-8". */
const CSV_UTF8 = "csv:Text - txt - csv (StarCalc):44,34,76,1";

describe.skipIf(SOFFICE === null && !REQUIRE)("the exported sample saved as CSV by LibreOffice Calc in a Croatian locale", () => {
  it("TOČNO/NETOČNO for every flag -> the JSON's site byte for byte, only the JSON's 14 warnings", async () => {
    expect(SOFFICE, "soffice is required (SUBJEKTI_REQUIRE_LIBREOFFICE=1)").not.toBeNull();
    const workbook = join(work.path, "subjekti.xlsx");
    expect((await runCli(["export", "--data", "data", "--out", workbook])).code).toBe(0);
    // A profile of its own (HOME), so the conversion neither meets nor changes the user's LibreOffice.
    const env = { ...process.env, HOME: join(work.path, "home"), LANG: "hr_HR.UTF-8", LC_ALL: "hr_HR.UTF-8" };
    const converted = spawnSync(SOFFICE ?? "soffice", ["--headless", "--convert-to", CSV_UTF8, "--outdir", work.path, workbook], {
      env,
      encoding: "utf8",
      timeout: 240_000,
    });
    expect(converted.status, converted.stderr).toBe(0);

    const data = join(work.path, "data");
    await mkdir(data);
    await rename(join(work.path, "subjekti.csv"), join(data, "subjekti.csv"));
    await copyFile("data/datapackage.json", join(data, "datapackage.json"));
    const csv = await readFile(join(data, "subjekti.csv"), "utf8");
    // The locale took: Calc wrote its Croatian words, and no English ones.
    expect(csv.split("\n").filter((line) => line.includes(",TOČNO,") || line.includes(",NETOČNO,")).length).toBe(5758);
    expect(csv).not.toMatch(/,(?:TRUE|FALSE),/);

    const jsonOut = join(work.path, "json");
    const json = await runCli(["build", "--data", "data", "--out", jsonOut, "--no-cache", "--lang", "hr"]);
    const csvOut = join(work.path, "csv");
    const built = await runCli(["build", "--data", data, "--out", csvOut, "--no-cache", "--lang", "hr"]);
    expect(built.code).toBe(0);
    // The same warnings, each at its CSV line rather than its JSON index.
    const warnings = (stderr: string): string[] =>
      stderr
        .split("\n")
        .filter((line) => line.startsWith("problemi po vrsti") || line.startsWith("  "))
        .map((line) => line.trim());
    expect(warnings(built.stderr)).toEqual(warnings(json.stderr));
    expect(warnings(built.stderr)).toContain("14  upozorenje  oib  očekuje se ispravna kontrolna znamenka (ISO 7064 MOD 11,10)");
    expect(built.stderr).not.toContain("TOČNO");
    expect(await snapshotTree(csvOut)).toEqual(await snapshotTree(jsonOut));
  }, 300_000);
});
