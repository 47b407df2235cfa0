/** Shuffling the records, and how they are spread over files and formats, changes nothing in what is read. */
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import fc from "fast-check";
import { expect, test } from "vitest";
import { DataError, formatProblem } from "../../../src/data/problems/problems.ts";
import { readSubjects } from "../read-subjects.ts";
import { tempDir } from "../../file-trees.ts";

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
        order: fc.shuffledSubarray(
          SUBJECTS.map((_, i) => i),
          { minLength: SUBJECTS.length },
        ),
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

async function readAll(layout: {
  order: number[];
  cuts: number[];
  formats: ("json" | "ndjson" | "csv")[];
}): Promise<{ subjects: readonly unknown[] }> {
  const dir = await tempDir("subjekti-shuffle-");
  try {
    const rows = layout.order.map((i) => SUBJECTS[i] as Row);
    const bounds = [0, ...[...layout.cuts].sort((a, b) => a - b), rows.length];
    for (let k = 0; k + 1 < bounds.length; k++) {
      const format = layout.formats[k] ?? "json";
      // Names that sort differently from the chunk order, so file order is shuffled too.
      await writeFile(join(dir, `${(k * 7) % 4}-${k}.${format}`), FORMATS[format](rows.slice(bounds[k], bounds[k + 1])));
    }
    return await readSubjects({ dataDir: dir, strict: false });
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

test("the rules across records, whatever the order and format: every broken one located as a plain reading of the rules locates it", async () => {
  const record = (id: number, code: string, valid: boolean): Row => ({
    ...(SUBJECTS[0] as Row),
    id,
    jedinstvena_oznaka: code,
    naziv_subjekta: valid ? `Subjekt ${id}` : "",
  });
  await fc.assert(
    fc.asyncProperty(
      fc.array(
        fc.record({
          id: fc.integer({ min: 1, max: 30 }),
          code: fc.integer({ min: 1, max: 40 }),
          pad: fc.constantFrom(4, 5),
          invalid: fc.integer({ min: 0, max: 9 }),
        }),
        { minLength: 1, maxLength: 25 },
      ),
      fc.constantFrom("json", "ndjson", "csv"),
      async (drawn, format) => {
        const rows = drawn.map((r) => record(r.id, String(r.code).padStart(r.pad, "0"), r.invalid !== 0));
        const dir = await tempDir("subjekti-rules-");
        await writeFile(join(dir, `s.${format}`), FORMATS[format](rows));
        const where = (i: number): string =>
          format === "json" ? `${dir}/s.json[${i}]` : `${dir}/s.${format}:${format === "csv" ? i + 2 : i + 1}`;
        // The rules read plainly: records by id (ties in reading order), each against the one before and every code before it;
        // a record with an error of its own (an empty name) takes part too, its id and code being valid.
        const byId = rows.map((row, i) => ({ row, i })).sort((a, b) => a.row.id - b.row.id || a.i - b.i);
        const expected: string[] = [];
        byId.forEach(({ row, i }, k) => {
          const before = byId[k - 1];
          const same = byId.slice(0, k).find((other) => Number(other.row.jedinstvena_oznaka) === Number(row.jedinstvena_oznaka));
          if (before !== undefined && before.row.id === row.id) {
            expected.push(`${where(i)}: id: expected a unique id, got ${row.id} (also at ${where(before.i)})`);
          } else if (same !== undefined) {
            expected.push(
              `${where(i)}: jedinstvena_oznaka: expected a unique value, got "${row.jedinstvena_oznaka}" ("${same.row.jedinstvena_oznaka}" is also id ${same.row.id}'s, at ${where(same.i)})`,
            );
          } else if (before !== undefined && Number(before.row.jedinstvena_oznaka) >= Number(row.jedinstvena_oznaka)) {
            const hint = `id ${before.row.id}, just before id ${row.id}, is at ${where(before.i)}`;
            expected.push(
              `${where(i)}: jedinstvena_oznaka: expected more than "${before.row.jedinstvena_oznaka}", as it increases with id, got "${row.jedinstvena_oznaka}" (${hint})`,
            );
          }
        });
        const located: string[] = [];
        try {
          await readSubjects({ dataDir: dir, strict: false, allProblems: true });
        } catch (error) {
          if (!(error instanceof DataError)) throw error;
          // The rules across records only: not the records' own errors, nor the warning for their one shared OIB.
          located.push(...error.problems.map(formatProblem).filter((line) => !line.includes("naziv_subjekta") && !line.includes(" oib: ")));
        } finally {
          await rm(dir, { recursive: true, force: true });
        }
        expect(located.sort()).toEqual(expected.sort());
      },
    ),
    { numRuns: 150 },
  );
});
