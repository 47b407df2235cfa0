import { execFile } from "node:child_process";
import { createHash } from "node:crypto";
import { mkdtemp, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { Writable } from "node:stream";
import { promisify } from "node:util";
import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Subject } from "../../src/core/render-page.ts";
import { SUBJECT_FIELDS } from "../../src/core/render-page.ts";
import {
  FORMATS,
  formatFor,
  type GenerateOptions,
  generateText,
  isValidOib,
  makeSubject,
  oibCheckDigit,
  seedFromText,
  subjectId,
  writeSubjects,
} from "../../scripts/generate-subjects.ts";

const run = promisify(execFile);
const SCRIPT = "scripts/generate-subjects.ts";

function text(options: GenerateOptions): string {
  return [...generateText(options)].join("");
}

function sha(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/** Every data rule (docs/data.md) for one list, checked directly; returns the broken ones. */
function contractProblems(subjects: readonly Subject[]): string[] {
  const problems: string[] = [];
  let previous: Subject | undefined;
  for (const [i, s] of subjects.entries()) {
    const at = `[${i}]`;
    if (Object.keys(s).join() !== SUBJECT_FIELDS.join()) problems.push(`${at} fields ${Object.keys(s).join()}`);
    if (!Number.isSafeInteger(s.id) || s.id < 1) problems.push(`${at} id ${s.id}`);
    if (!/^[0-9]{4,}$/.test(s.jedinstvena_oznaka)) problems.push(`${at} code ${s.jedinstvena_oznaka}`);
    if (typeof s.naziv_subjekta !== "string" || s.naziv_subjekta.length === 0) problems.push(`${at} naziv`);
    if (typeof s.oib !== "string" || !isValidOib(s.oib)) problems.push(`${at} oib ${s.oib}`);
    if (s.razina !== "lokalna" && s.razina !== "nacionalna") problems.push(`${at} razina ${s.razina}`);
    const date = /^(\d{4})-(\d{2})-(\d{2})$/.exec(s.datum_postanka);
    const real = date !== null && new Date(`${s.datum_postanka}T00:00:00Z`).toISOString().slice(0, 10) === s.datum_postanka;
    if (!real) problems.push(`${at} date ${s.datum_postanka}`);
    if (typeof s.status_subjekta !== "boolean" || typeof s.odobreno !== "boolean") problems.push(`${at} flags`);
    if (typeof s.institucija_grad !== "string" || s.institucija_grad === "") problems.push(`${at} grad (empty is a warning)`);
    if (typeof s.institucija_email !== "string") problems.push(`${at} email`);
    if (previous !== undefined) {
      if (s.id <= previous.id) problems.push(`${at} id ${s.id} after ${previous.id}`);
      if (BigInt(s.jedinstvena_oznaka) <= BigInt(previous.jedinstvena_oznaka)) problems.push(`${at} code not increasing`);
    }
    previous = s;
  }
  return problems;
}

describe("oibCheckDigit", () => {
  it.each([
    ["23557321379", true], // data/subjekti.json[0]
    ["81618487055", true], // a real one from the registry
    ["23557321378", false],
    ["2355732137", false], // 10 digits
  ])("%s valid -> %s", (oib, valid) => {
    expect(isValidOib(oib)).toBe(valid);
  });

  it("agrees with the sample's check digits (all but the registry's few bad ones)", async () => {
    const sample = JSON.parse(await readFile("data/subjekti.json", "utf8")) as Subject[];
    const good = sample.filter((s) => oibCheckDigit(s.oib.slice(0, 10)) === Number(s.oib[10]));
    expect(sample.length - good.length).toBeLessThan(20);
  });
});

describe("determinism", () => {
  it.each(FORMATS)("the same seed and count -> the same %s bytes; another seed -> other bytes", (format) => {
    const a = text({ count: 3000, seed: "7", format });
    expect(sha(text({ count: 3000, seed: "7", format }))).toBe(sha(a));
    expect(sha(text({ count: 3000, seed: "8", format }))).not.toBe(sha(a));
  });

  it("a record depends on (seed, index) only: N records are a prefix of M > N", () => {
    const seed = seedFromText("prefix");
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 5_000_000 }), (index) => {
        expect(makeSubject(seed, index)).toEqual(makeSubject(seed, index));
      }),
      { numRuns: 200 },
    );
    const short = JSON.parse(text({ count: 100, seed: "prefix", format: "json" })) as Subject[];
    const long = JSON.parse(text({ count: 250, seed: "prefix", format: "json" })) as Subject[];
    expect(long.slice(0, 100)).toEqual(short);
  });

  it("the CLI writes the same file twice, equal to the in-process text", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gen-"));
    try {
      const args = ["--import", "tsx", SCRIPT, "--count", "2000", "--seed", "cli", "--format", "csv"];
      await run(process.execPath, [...args, "--out", join(dir, "a.csv")]);
      await run(process.execPath, [...args, "--out", join(dir, "b.csv")]);
      const a = await readFile(join(dir, "a.csv"));
      expect(sha(await readFile(join(dir, "b.csv")))).toBe(sha(a));
      expect(a.toString("utf8")).toBe(text({ count: 2000, seed: "cli", format: "csv" }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it.each([
    ["x.ndjson", undefined, "ndjson"],
    ["data/X.NDJSON", undefined, "ndjson"],
    ["x.csv", undefined, "csv"],
    ["x.json", undefined, "json"],
    ["-", undefined, "json"],
    ["x.txt", undefined, "json"],
    ["x.ndjson", "json", "json"],
    ["x.json", "csv", "csv"],
  ] as const)("--out %s with --format %s -> %s", (out, format, expected) => {
    expect(formatFor(out, format)).toBe(expected);
  });

  it("the CLI writes NDJSON into a .ndjson name (the format from the extension), and what --format says over it", async () => {
    const dir = await mkdtemp(join(tmpdir(), "gen-"));
    try {
      const args = ["--import", "tsx", SCRIPT, "--count", "300", "--seed", "ext"];
      await run(process.execPath, [...args, "--out", join(dir, "a.ndjson")]);
      await run(process.execPath, [...args, "--format", "json", "--out", join(dir, "b.ndjson")]);
      const ndjson = await readFile(join(dir, "a.ndjson"), "utf8");
      expect(ndjson).toBe(text({ count: 300, seed: "ext", format: "ndjson" }));
      // One record a line, no array around them.
      const lines = ndjson.trimEnd().split("\n");
      expect(lines).toHaveLength(300);
      expect(lines.map((line) => (JSON.parse(line) as Subject).id)).toEqual(
        (JSON.parse(text({ count: 300, seed: "ext", format: "json" })) as Subject[]).map((s) => s.id),
      );
      expect(await readFile(join(dir, "b.ndjson"), "utf8")).toBe(text({ count: 300, seed: "ext", format: "json" }));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("--edit changes that record's name and no other byte of the record list", () => {
    const plain = JSON.parse(text({ count: 500, seed: "e", format: "json" })) as Subject[];
    const edited = JSON.parse(text({ count: 500, seed: "e", format: "json", edit: 250 })) as Subject[];
    expect(edited.length).toBe(plain.length);
    expect(edited.filter((s, i) => JSON.stringify(s) !== JSON.stringify(plain[i]))).toEqual([
      { ...plain[250], naziv_subjekta: `${plain[250]?.naziv_subjekta} (izmijenjeno)` },
    ]);
  });

  it.each(FORMATS)("--shuffle -> the same %s records, out of id order, in the same order for the same seed", (format) => {
    const options: GenerateOptions = { count: 3000, seed: "s", format };
    const shuffled = text({ ...options, shuffle: true });
    expect(text({ ...options, shuffle: true })).toBe(shuffled);
    expect(text({ ...options, seed: "t", shuffle: true })).not.toBe(shuffled);
    const lines = (t: string): string[] => t.split("\n").slice(format === "csv" ? 1 : 0);
    if (format === "json") {
      const plain = JSON.parse(text(options)) as Subject[];
      const mixed = JSON.parse(shuffled) as Subject[];
      expect(mixed).not.toEqual(plain);
      expect([...mixed].sort((a, b) => a.id - b.id)).toEqual(plain);
      // Well mixed: about half of all neighbours descend.
      const descending = mixed.filter((s, i) => i > 0 && s.id < (mixed[i - 1]?.id ?? 0)).length;
      expect(descending / mixed.length).toBeGreaterThan(0.4);
    } else {
      expect(lines(shuffled)).not.toEqual(lines(text(options)));
      expect(lines(shuffled).sort()).toEqual(lines(text(options)).sort());
    }
  });
});

describe("validity", () => {
  const subjects = JSON.parse(text({ count: 20_000, seed: "valid", format: "json" })) as Subject[];

  it("20k records keep every data rule of docs/data.md", () => {
    expect(contractProblems(subjects)).toEqual([]);
  });

  it("any record at any index is valid, and ids ascend across any two neighbours", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 0xffffffff }), fc.integer({ min: 0, max: 9_999_998 }), (seed, index) => {
        const pair = [makeSubject(seed, index), makeSubject(seed, index + 1)];
        expect(contractProblems(pair)).toEqual([]);
        expect(subjectId(seed, index)).toBe(pair[0]?.id);
      }),
      { numRuns: 300 },
    );
  });

  it("holds the registry's awkward values: leading-zero OIBs, diacritics, quotes, gaps, two addresses, web addresses, empty contacts", () => {
    const has = (test: (s: Subject) => boolean): number => subjects.filter(test).length;
    expect(has((s) => s.oib.startsWith("0"))).toBeGreaterThan(1000);
    for (const letter of ["č", "ć", "đ", "š", "ž", "Č", "Š", "Ž", "Đ"]) {
      expect(
        has((s) => s.naziv_subjekta.includes(letter) || s.institucija_grad.includes(letter)),
        letter,
      ).toBeGreaterThan(0);
    }
    expect(has((s) => s.naziv_subjekta.includes('"'))).toBeGreaterThan(0);
    expect(has((s) => s.naziv_subjekta.startsWith("Osnovna škola "))).toBeGreaterThan(1000);
    expect(has((s) => s.naziv_subjekta.startsWith("Općina "))).toBeGreaterThan(100);
    expect(has((s) => s.naziv_subjekta.startsWith("Dječji vrtić "))).toBeGreaterThan(1000);
    expect(has((s) => s.institucija_email === "")).toBeGreaterThan(50);
    expect(has((s) => /^[^,]+@[^,]+, [^,]+@[^,]+$/.test(s.institucija_email))).toBeGreaterThan(50);
    expect(has((s) => s.institucija_email.startsWith("www."))).toBeGreaterThan(10);
    expect(has((s) => s.razina === "nacionalna")).toBeGreaterThan(1000);
    expect(has((s) => !s.status_subjekta)).toBeGreaterThan(100);
    expect(has((s) => !s.odobreno)).toBeGreaterThan(100);
    const gaps = subjects.filter((s, i) => i > 0 && s.id - (subjects[i - 1]?.id ?? 0) > 1).length;
    expect(gaps).toBeGreaterThan(1000);
    expect(new Set(subjects.map((s) => s.datum_postanka.slice(0, 4))).size).toBeGreaterThan(70);
  });

  it("CSV and NDJSON carry the same records as JSON", () => {
    const options = { count: 300, seed: "formats" } as const;
    const json = JSON.parse(text({ ...options, format: "json" })) as Subject[];
    const ndjson = text({ ...options, format: "ndjson" })
      .trimEnd()
      .split("\n")
      .map((line) => JSON.parse(line) as Subject);
    expect(ndjson).toEqual(json);
    const lines = text({ ...options, format: "csv" })
      .trimEnd()
      .split("\n");
    expect(lines[0]).toBe(SUBJECT_FIELDS.join(","));
    expect(lines.length).toBe(301);
    // Every record's OIB keeps its leading zeros as text, and quoted names are quoted CSV cells.
    for (const [i, s] of json.entries()) {
      expect(lines[i + 1]).toContain(`,${s.oib},`);
      if (s.naziv_subjekta.includes('"')) expect(lines[i + 1]).toContain(`"${s.naziv_subjekta.replaceAll('"', '""')}"`);
    }
  });

  it("an empty list is [] in JSON and a header in CSV", () => {
    expect(text({ count: 0, seed: "1", format: "json" })).toBe("[]");
    expect(text({ count: 0, seed: "1", format: "csv" })).toBe(`${SUBJECT_FIELDS.join(",")}\n`);
    expect(text({ count: 0, seed: "1", format: "ndjson" })).toBe("");
  });
});

describe("validity by the project's own reader (readSubjects)", () => {
  let dir = "";
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "gen-read-"));
    for (const format of FORMATS) {
      await mkdir(join(dir, format));
      await writeFile(join(dir, format, `subjekti.${format}`), text({ count: 5000, seed: "reader", format }));
    }
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });

  it.each(FORMATS)("generated %s passes readSubjects --strict with no warning", async (format) => {
    const { readSubjects } = await import("../data/read-subjects.ts");
    const result = await readSubjects({ dataDir: join(dir, format), strict: true });
    expect(result.warnings).toEqual([]);
    expect(result.subjects).toEqual(JSON.parse(text({ count: 5000, seed: "reader", format: "json" })));
  });
});

describe("streaming", () => {
  it("waits for drain: a slow stream's buffer never holds more than its high-water mark and one piece", async () => {
    let most = 0;
    let bytes = 0;
    const slow = new Writable({
      highWaterMark: 64 * 1024,
      write(chunk: Buffer, _encoding, done) {
        // Everything queued behind this chunk, which piles up if the writer ignores backpressure.
        most = Math.max(most, slow.writableLength);
        bytes += chunk.length;
        setImmediate(done);
      },
    });
    await writeSubjects({ count: 20_000, seed: "slow", format: "ndjson" }, slow);
    expect(bytes).toBeGreaterThan(5_000_000);
    // Without waiting for drain the whole 5 MB would sit in the buffer.
    expect(most).toBeLessThan(64 * 1024 + 2 * 70_000);
  });
});
