/** Shuffling the records, and how they are spread over files and formats, changes nothing in what is read. */
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { readSubjects } from "./_read.ts";
import { tempDir } from "../_tree.ts";

const SUBJECTS = Array.from({ length: 12 }, (_, i) => ({
  id: 10 + i * 3,
  jedinstvena_oznaka: String(i + 1).padStart(4, "0"),
  naziv_subjekta: `Subjekt ${i}; "d.o.o.",\nUmag`,
  oib: "23557321379",
  razina: i % 2 === 0 ? "lokalna" : "nacionalna",
  datum_postanka: "1999-12-31",
  status_subjekta: i % 3 === 0,
  odobreno: i % 4 !== 0,
  institucija_grad: "Čakovec",
  institucija_email: `a${i}@b.hr, c@d.hr`,
}));
type Row = (typeof SUBJECTS)[number];

const FIELDS = Object.keys(SUBJECTS[0] ?? {});
const csvCell = (v: unknown): string => `"${String(v).replace(/"/g, '""')}"`;
const FORMATS = {
  json: (rows: Row[]) => JSON.stringify(rows, null, 1),
  ndjson: (rows: Row[]) => rows.map((r) => JSON.stringify(r)).join("\n"),
  csv: (rows: Row[]) => [FIELDS.join(";"), ...rows.map((r) => FIELDS.map((f) => csvCell(r[f as keyof Row])).join(";"))].join("\r\n"),
} as const;

test("any permutation of the records, split over any files in any formats, reads as the same subjects in id order", async () => {
  const reference = (await readAll({ order: SUBJECTS.map((_, i) => i), cuts: [], formats: ["json"] })).subjects;
  expect(reference).toEqual(SUBJECTS);
  await fc.assert(
    fc.asyncProperty(
      fc.record({
        order: fc.shuffledSubarray(SUBJECTS.map((_, i) => i), { minLength: SUBJECTS.length }),
        cuts: fc.uniqueArray(fc.integer({ min: 1, max: SUBJECTS.length - 1 }), { maxLength: 3 }),
        formats: fc.array(fc.constantFrom("json", "ndjson", "csv"), { minLength: 4, maxLength: 4 }),
      }),
      async (layout) => {
        const { subjects } = await readAll(layout);
        expect(subjects).toEqual(reference);
      },
    ),
    { numRuns: 40 },
  );
});

async function readAll(layout: { order: number[]; cuts: number[]; formats: ("json" | "ndjson" | "csv")[] }): Promise<{ subjects: readonly unknown[] }> {
  const dir = await tempDir("subjekti-shuffle-");
  const rows = layout.order.map((i) => SUBJECTS[i] as Row);
  const bounds = [0, ...[...layout.cuts].sort((a, b) => a - b), rows.length];
  for (let k = 0; k + 1 < bounds.length; k++) {
    const format = layout.formats[k] ?? "json";
    // Names that sort differently from the chunk order, so file order is shuffled too.
    await writeFile(join(dir, `${(k * 7) % 4}-${k}.${format}`), FORMATS[format](rows.slice(bounds[k], bounds[k + 1])));
  }
  return readSubjects({ dataDir: dir, strict: false });
}
