/**
 * Sources written as a careless or hostile data source would: deep nesting, huge records, a field
 * named twice, numbers too long to hold, hundreds of thousands of problems, symbolic-link loops. Each is a real
 * file generated here into a temporary folder; each must end in located problems, never a crash.
 */
import { execFile } from "node:child_process";
import { createWriteStream } from "node:fs";
import { mkdir, rm, symlink, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { once } from "node:events";
import { promisify } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { DataError, formatMore, formatProblem, type Problem } from "../../../src/data/problems/problems.ts";
import { FIELD_NAMES } from "../../../src/data/rules/subject-fields.ts";
import { validateSubject } from "../../../src/data/rules/validate-subject.ts";
import { tempDir } from "../../file-trees.ts";
import { CLI_ENTRY } from "../../cli-entry.ts";
import { readSubjects } from "../read-subjects.ts";

const run = promisify(execFile);

const subject = (id: number): Record<string, unknown> => ({
  id,
  jedinstvena_oznaka: String(id).padStart(4, "0"),
  naziv_subjekta: "Grad Labin",
  oib: "23557321379",
  razina: "lokalna",
  datum_postanka: "1966-05-14",
  status_subjekta: true,
  odobreno: false,
  institucija_grad: "Labin",
  institucija_email: "",
});
const RECORD = JSON.stringify(subject(1));
const DEEP_OBJECT = `${'{"a":'.repeat(100_000)}1${"}".repeat(100_000)}`;
/**
 * Unknown keys in one record, unknown columns in one header: more than one call's arguments hold
 * (some 125,000 on Node's default stack), so a spread of them anywhere on the way would throw —
 * the test below asserts it — and no more, as each costs some 15 µs to report, twice.
 */
const MANY = 150_000;
/** A name past the JSON reader's 16 MB bound on an element, whose bytes it then stops keeping (reported in bytes, not characters). */
const HUGE_MB = 20;

/** Each row: a folder name, the files to write into it, and the problem lines reading it gives (before the summary). */
const ROWS: { name: string; files: Record<string, string>; lines: (dir: string) => string[] }[] = [
  {
    name: "a JSON array nested 200,000 deep",
    files: { "x.json": `${"[".repeat(200_000)}${"]".repeat(200_000)}` },
    lines: (d) => [
      `${d}/x.json[0]: expected an object with the ten fields of a subject, got an array nested 199,999 deep (a subject's fields are flat values)`,
    ],
  },
  {
    name: "a field holding an object nested 100,000 deep",
    files: { "x.json": `[${RECORD.replace('"Grad Labin"', DEEP_OBJECT)}]` },
    lines: (d) => [
      `${d}/x.json[0]: naziv_subjekta: expected a flat value, got an object nested 100,000 deep (a subject's fields are flat values)`,
    ],
  },
  {
    name: "an NDJSON line nested 100,000 deep",
    files: { "x.ndjson": `${RECORD}\n${JSON.stringify(subject(2)).replace('"Grad Labin"', DEEP_OBJECT)}\n` },
    lines: (d) => [
      `${d}/x.ndjson:2: naziv_subjekta: expected a flat value, got an object nested 100,000 deep (a subject's fields are flat values)`,
    ],
  },
  {
    name: "one record with 150,000 unknown keys",
    files: { "x.json": `[${RECORD.slice(0, -1)},${Array.from({ length: MANY }, (_, i) => `"k${i}":1`).join(",")}}]` },
    lines: (d) => [
      ...[0, 1, 2, 3, 4].map((i) => `${d}/x.json[0]: k${i}: expected one of the ten field names`),
      "… and 149,995 more like this: an unknown field: expected one of the ten field names",
    ],
  },
  {
    name: "a record that gives id twice",
    files: { "x.json": `[${RECORD.replace('"id":1,', '"id":2,').replace('"odobreno":false', '"odobreno":false,"id":999')}]` },
    lines: (d) => [
      `${d}/x.json[0]: id: expected each field once, got 2 and then 999 (JSON keeps only the last value; which one is meant?)`,
    ],
  },
  {
    name: "an NDJSON line that gives a field twice with ten keys in all",
    files: { "x.ndjson": `${RECORD.replace('"institucija_email":""', '"naziv_subjekta":"Grad Pula"')}\n` },
    lines: (d) => [
      `${d}/x.ndjson:1: naziv_subjekta: expected each field once, got "Grad Labin" and then "Grad Pula" (JSON keeps only the last value; which one is meant?)`,
      `${d}/x.ndjson:1: institucija_email: expected a string, got nothing (the field is missing)`,
    ],
  },
  {
    name: "an array of 20,000 items that are not records",
    files: { "x.json": `[${Array.from({ length: 20_000 }, () => "1").join(",")}]` },
    lines: (d) => [
      ...[0, 1, 2, 3, 4].map((i) => `${d}/x.json[${i}]: expected an object with the ten fields of a subject, got 1`),
      "… and 19,995 more like this: expected an object with the ten fields of a subject",
    ],
  },
  {
    name: "a CSV header with 150,000 unknown columns",
    files: { "x.csv": `${Array.from({ length: MANY }, (_, i) => `c${i}`).join(",")}\n1,2\n` },
    lines: (d) => [
      ...[0, 1, 2, 3, 4].map(
        (i) =>
          `${d}/x.csv:1: c${i}: expected one of the ten field names as a column (delete the column or rename it to one of ${FIELD_NAMES.join(", ")})`,
      ),
      ...FIELD_NAMES.map((f) => `${d}/x.csv:1: ${f}: expected a column in the header row (the column is missing: add it)`),
      "… and 149,995 more like this: an unknown field: expected one of the ten field names as a column",
    ],
  },
  {
    name: "a CSV header that repeats a column",
    files: { "x.csv": `${FIELD_NAMES.join(",")},oib\n` },
    lines: (d) => [`${d}/x.csv:1: oib: expected each column once (the column is repeated: delete one)`],
  },
  {
    name: "an id written with 100,001 digits",
    files: { "x.json": `[${RECORD.replace('"id":1', `"id":1${"0".repeat(100_000)}`)}]` },
    lines: (d) => [`${d}/x.json[0]: id: expected an integer ≥ 1, got 1000…0 (100,001 digits) (too many digits for an exact number)`],
  },
  {
    name: "a CSV id written with 100,001 digits",
    files: { "x.csv": `${FIELD_NAMES.join(",")}\n1${"0".repeat(100_000)},0001,Grad,23557321379,lokalna,1966-05-14,true,false,Labin,\n` },
    lines: (d) => [`${d}/x.csv:2: id: expected an integer ≥ 1, got 1000…0 (100,001 digits) (too many digits for an exact number)`],
  },
  {
    name: "a naziv_subjekta longer than --max-field-length",
    files: { "x.json": `[${RECORD.replace('"Grad Labin"', JSON.stringify("a".repeat(2001)))}]` },
    lines: (d) => [
      `${d}/x.json[0]: naziv_subjekta: expected at most 2,000 characters, got 2,001 characters (--max-field-length raises the bound)`,
    ],
  },
];

let root: string;

/** A naziv_subjekta of HUGE_MB megabytes, written in 1 MB pieces. */
async function writeHugeName(path: string): Promise<void> {
  const out = createWriteStream(path);
  const [head, tail] = RECORD.split('"Grad Labin"');
  out.write(`[${head}"`);
  const megabyte = "a".repeat(1 << 20);
  for (let i = 0; i < HUGE_MB; i++) if (!out.write(megabyte)) await once(out, "drain");
  out.end(`"${tail}]`);
  await once(out, "finish");
}

beforeAll(async () => {
  root = await tempDir("subjekti-hostile-");
  for (const row of ROWS) {
    await mkdir(join(root, row.name));
    for (const [file, text] of Object.entries(row.files)) await writeFile(join(root, row.name, file), text);
  }
  await mkdir(join(root, "huge"));
  await writeHugeName(join(root, "huge", "x.json"));
}, 60_000);

afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The lines a validate prints for `dataDir`, in process: the kept problems, then a line per kind with more. */
async function problemLines(dataDir: string, options: { maxFieldLength?: number } = {}): Promise<string[]> {
  try {
    await readSubjects({ dataDir, strict: false, threads: 0, ...options });
  } catch (error) {
    if (!(error instanceof DataError)) throw error;
    return [...error.problems.map(formatProblem), ...error.kinds.flatMap((k) => formatMore(k) ?? [])];
  }
  throw new Error("expected a DataError");
}

describe("hostile sources: located problems, never a crash", () => {
  test.each(ROWS.map((row) => [row.name, row] as const))(
    "%s",
    async (_, row) => {
      const dir = join(root, row.name);
      expect(await problemLines(dir)).toEqual(row.lines(dir));
    },
    60_000,
  );

  test("more unknown keys and columns than one call's arguments hold", () => {
    expect(() => Math.max(...Array.from({ length: MANY }, () => 0))).toThrow(RangeError);
  });

  test("a naziv_subjekta of 20 MB -> its length, not its value", async () => {
    const dir = join(root, "huge");
    expect(await problemLines(dir)).toEqual([
      `${dir}/x.json[0]: naziv_subjekta: expected at most 2,000 characters, got 20,971,520 bytes (--max-field-length raises the bound)`,
    ]);
  }, 60_000);

  test("--max-field-length raises the bound", async () => {
    const dir = join(root, "a naziv_subjekta longer than --max-field-length");
    await expect(readSubjects({ dataDir: dir, strict: false, maxFieldLength: 2001 })).resolves.toMatchObject({ count: 1 });
  });

  test("the CLI over every row at once: exit 1, each located line, the exact count, no stack trace", async () => {
    // The compiled CLI while lib/ is current, else the sources through tsx (test/cli-entry.ts): not npx, then tsx's transform, each time.
    const failed = await run(process.execPath, [...CLI_ENTRY, "validate", "--data", root], { encoding: "utf8", maxBuffer: 1 << 24 }).then(
      () => undefined,
      (error: unknown) => error as { code: number; stdout: string; stderr: string },
    );
    expect(failed?.code).toBe(1);
    const stderr = failed?.stderr ?? "";
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stderr).toContain(`${root}/huge/x.json[0]: naziv_subjekta: expected at most 2,000 characters, got 20,971,520 bytes`);
    expect(stderr).toContain(
      `${root}/an id written with 100,001 digits/x.json[0]: id: expected an integer ≥ 1, got 1000…0 (100,001 digits)`,
    );
    // The array nested 200,000 deep is of the same kind as the 20,000 items: one kept, so four of these.
    expect(stderr).toContain("… and 19,996 more like this: expected an object with the ten fields of a subject\n");
    // Every error counted: 150,000 unknown keys, 150,010 CSV header problems, 20,000 items, and one each for the rest; and the
    // rules across records over the records whose id and code are valid (several rows' record is id 1, code 0001): 5 more.
    expect(stderr).toMatch(/subjekti: 320026 errors in the data; nothing was written\n$/);
  }, 180_000);
});

describe("symbolic links: each source read once", () => {
  test("a link to its own parent and a second path to a file -> one read, and a warning for each", async () => {
    const dir = await tempDir("subjekti-links-");
    const outside = await tempDir("subjekti-outside-");
    try {
      await mkdir(join(dir, "sub"));
      await writeFile(join(dir, "a.json"), `[${RECORD}]`);
      await writeFile(join(outside, "b.json"), `[${JSON.stringify(subject(2))}]`);
      await symlink("..", join(dir, "sub", "up"));
      await symlink("../a.json", join(dir, "sub", "again.json"));
      await symlink(outside, join(dir, "elsewhere"));
      const result = await readSubjects({ dataDir: dir, strict: false });
      expect(result.files).toEqual([`${dir}/a.json`]);
      expect(result.count).toBe(1);
      expect(result.warnings.map(formatProblem)).toEqual([
        `${dir}/elsewhere: warning: expected a link that stays inside --data, got one to ${outside} (not followed; --follow-outside follows it)`,
        `${dir}/sub/up: warning: expected each source reached once, got a link to ${dir}, read already (a second way to the same files, or a loop; they are read once)`,
        `${dir}/sub/again.json: warning: expected each source reached once, got a second path to ${dir}/a.json (read once, as ${dir}/a.json)`,
      ]);
      const followed = await readSubjects({ dataDir: dir, strict: false, followOutside: true });
      expect(followed.files).toEqual([`${dir}/a.json`, `${dir}/elsewhere/b.json`]);
      expect(followed.count).toBe(2);
    } finally {
      await rm(dir, { recursive: true, force: true });
      await rm(outside, { recursive: true, force: true });
    }
  });
});

describe("validateSubject over arbitrary JSON in any field", () => {
  const file = { name: "data/x.json", path: "data/x.json", locateBy: "index", kind: "json" } as const;
  test("never throws, and every problem names its file, record and field", () => {
    fc.assert(
      fc.property(fc.constantFrom(...FIELD_NAMES, "extra"), fc.jsonValue({ maxDepth: 200 }), fc.nat(1000), (field, value, index) => {
        const record = { ...subject(1), [field]: value };
        const text = JSON.stringify(record);
        const problems: Problem[] = [];
        validateSubject(record, file, index, false, problems, undefined, { keys: Object.keys(record).length, text: () => text });
        for (const p of problems) expect(p).toMatchObject({ file: "data/x.json", index, field: expect.any(String) });
      }),
      { numRuns: 300 },
    );
  });

  test("a value nested 100,000 deep in any field", () => {
    let deep: unknown = 1;
    for (let i = 0; i < 100_000; i++) deep = [deep];
    for (const field of FIELD_NAMES) {
      const problems: Problem[] = [];
      validateSubject({ ...subject(1), [field]: deep }, file, 3, false, problems);
      expect(problems.map(formatProblem)).toEqual([
        `data/x.json[3]: ${field}: expected a flat value, got an array nested 100,000 deep (a subject's fields are flat values)`,
      ]);
    }
  });
});
