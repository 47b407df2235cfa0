/**
 * U+2028 and U+2029 inside values: valid JSON unescaped, and no line end in NDJSON (delimited by
 * `\n` alone) or CSV. On Node 24 `node:readline` ends a line at them, which split an NDJSON record
 * in two; every source format must read the same records on every Node version.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { SUBJECT_FIELDS } from "../../../src/core/render-page.ts";
import { useTempDir } from "../../file-trees.ts";
import { readSubjects } from "../read-subjects.ts";

const work = useTempDir();
const subjects = [1, 2, 3].map((id) => ({
  id,
  jedinstvena_oznaka: String(id).padStart(4, "0"),
  naziv_subjekta: `Naziv\u2028s razdjelnikom ${id}\u2029kraj`,
  // Three OIBs: one OIB for two subjects is a warning, an error under --strict.
  oib: ["23557321379", "56396370038", "17195049659"][id - 1] as string,
  razina: "lokalna",
  datum_postanka: "2001-01-01",
  status_subjekta: true,
  odobreno: false,
  institucija_grad: `Grad\u2028${id}`,
  institucija_email: `a\u2029${id}@example.hr`,
}));

describe("U+2028 and U+2029 in every text field", () => {
  it.each(["json", "ndjson", "csv"] as const)("a %s source reads the same records", async (format) => {
    const dir = join(work.path, format);
    await mkdir(dir);
    // JSON.stringify leaves U+2028/U+2029 unescaped, as a maintainer's tool may.
    const text =
      format === "json"
        ? JSON.stringify(subjects)
        : format === "ndjson"
          ? subjects.map((s) => JSON.stringify(s)).join("\n") + "\n"
          : [SUBJECT_FIELDS.join(";"), ...subjects.map((s) => SUBJECT_FIELDS.map((f) => String(s[f])).join(";"))].join("\r\n");
    expect(text).toContain("\u2028");
    await writeFile(join(dir, `subjekti.${format}`), text);
    const read = await readSubjects({ dataDir: dir, strict: true });
    expect(read.subjects).toEqual(subjects);
  });
});
