/**
 * An OIB and a code typed as numbers, their zeros gone, as each real writer saves them
 * (test/fixtures/spreadsheet-writers/number-cells, made by test/fixtures/spreadsheet-writers/make-fixtures.sh with
 * openpyxl, xlsxwriter, LibreOffice Calc and Gnumeric): the build reads them with the zeros put
 * back and warns, in both languages, naming the file, cell, field, value and what it read;
 * `--strict` refuses them and writes nothing.
 */
import { access, copyFile, mkdir, readFile, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../../run-cli.ts";
import { snapshotTree, useTempDir } from "../../file-trees.ts";

const FIXTURES = "test/fixtures/spreadsheet-writers/number-cells";
const WRITERS = ["openpyxl", "xlsxwriter", "libreoffice", "gnumeric"] as const;
const work = useTempDir();
let jsonTree: Record<string, string>;

beforeAll(async () => {
  const sample = JSON.parse(await readFile("data/subjekti.json", "utf8")) as { id: number }[];
  const data = join(work.path, "json-data");
  await mkdir(data);
  await writeFile(join(data, "subjekti.json"), JSON.stringify(sample.filter((s) => [2, 3, 4, 29].includes(s.id))));
  await copyFile("data/datapackage.json", join(data, "datapackage.json"));
  const out = join(work.path, "json");
  expect((await runCli(["build", "--data", data, "--out", out, "--no-cache"])).code).toBe(0);
  jsonTree = await snapshotTree(out);
});

const ENGLISH = {
  code: 'jedinstvena_oznaka: 1 × a code in a number cell: expected at least 4 digits in a text cell, got 2 (read as "0002"; format the column as text to keep the zeros)',
  oib: 'oib: 1 × an OIB in a number cell: expected 11 digits in a text cell, got 4323472109 (read as "04323472109"; format the column as text to keep the zeros)',
  warning: "warning: ",
  refused: "subjekti: 2 errors in the data; nothing was written",
};
const CROATIAN = {
  code: 'jedinstvena_oznaka: 1 × oznaka u brojčanoj ćeliji: očekuje se najmanje 4 znamenke u tekstnoj ćeliji, a nađeno je 2 (pročitano kao "0002"; oblikujte stupac kao tekst da se nule sačuvaju)',
  oib: 'oib: 1 × OIB u brojčanoj ćeliji: očekuje se 11 znamenaka u tekstnoj ćeliji, a nađeno je 4323472109 (pročitano kao "04323472109"; oblikujte stupac kao tekst da se nule sačuvaju)',
  warning: "upozorenje: ",
  refused: "subjekti: 2 greške u podacima; ništa nije zapisano",
};

/** The writer's workbook alone in a data directory, with the sample's descriptor beside it. */
async function dataOf(writer: string): Promise<string> {
  const data = join(work.path, `${writer}-data`);
  await mkdir(data, { recursive: true });
  await copyFile(join(FIXTURES, `${writer}.xlsx`), join(data, "subjekti.xlsx"));
  await copyFile("data/datapackage.json", join(data, "datapackage.json"));
  return data;
}

const exists = (path: string): Promise<boolean> =>
  access(path).then(
    () => true,
    () => false,
  );

describe("an OIB and a code in number cells, as each real writer saves them", () => {
  it.each(WRITERS)("%s -> built with the zeros put back and two warnings; --strict refuses, in English and Croatian", async (writer) => {
    const data = await dataOf(writer);
    const file = `${data}/subjekti.xlsx!subjekti!`;
    for (const [lang, say] of [
      ["en", ENGLISH],
      ["hr", CROATIAN],
    ] as const) {
      const out = join(work.path, `${writer}-${lang}`);
      const built = await runCli(["build", "--data", data, "--out", out, "--no-cache", "--lang", lang]);
      expect(built.code).toBe(0);
      expect(built.stderr.trimEnd().split("\n")).toEqual([`${file}B3: ${say.warning}${say.code}`, `${file}D5: ${say.warning}${say.oib}`]);
      // The site of the same four records from JSON, byte for byte: the zeros are back.
      const tree = await snapshotTree(out);
      expect(Object.keys(tree).sort()).toEqual(Object.keys(jsonTree).sort());
      for (const [path, bytes] of Object.entries(jsonTree)) expect(tree[path], path).toBe(bytes);

      const strictOut = join(work.path, `${writer}-${lang}-strict`);
      const strict = await runCli(["build", "--data", data, "--out", strictOut, "--no-cache", "--strict", "--lang", lang]);
      expect(strict.code).toBe(1);
      expect(strict.stderr.trimEnd().split("\n")).toEqual([`${file}B3: ${say.code}`, `${file}D5: ${say.oib}`, say.refused]);
      expect(await exists(strictOut)).toBe(false);
    }
  });
});
