/**
 * The OIB check's parts against a plain Map of first holders: the same warnings, word for word, in
 * reading order, whether the parts stay in memory or are spilled to files (tens of thousands of
 * OIBs, then a million), several files read in turns, ids and codes too large for 32 bits, and the
 * same record in two sources (left to the id rule).
 */
import { describe, expect, it } from "vitest";
import { OibCheck, type OibKeys } from "../../../src/data/rules/check-oibs.ts";
import { ProblemCollector, type Problem } from "../../../src/data/problems/problems.ts";
import type { SourceFile } from "../../../src/data/sources/source-file.ts";
import { ENGLISH, translator } from "../../../src/common/messages/translate.ts";

const file = (name: string, locateBy: "index" | "line"): SourceFile => ({
  name,
  path: name,
  locateBy,
  kind: locateBy === "index" ? "json" : "csv",
});
const FILES = [file("a.json", "index"), file("b.csv", "line"), file("c.json", "index")];

interface Holder {
  readonly id: number;
  readonly code: string;
  readonly file: SourceFile;
  readonly position: number;
}

const said = (p: Problem): string => `${p.file}:${p.index ?? p.line} ${p.severity} ${String(p.value)} ${ENGLISH.say(p.hint ?? p.expected)}`;

describe("OibCheck", () => {
  it.each([
    [60, "held in memory"],
    [300, "spilled to files"],
  ])("warns exactly as a map of every first holder would, through files and large keys: %i blocks, %s", async (blocks) => {
    const check = new OibCheck();
    const problems = new ProblemCollector(Number.POSITIVE_INFINITY);
    const expected: string[] = [];
    const first = new Map<string, Holder>();
    const seen: string[] = [];
    let seed = 7;
    const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    let id = 1;
    for (let block = 0; block < blocks; block++) {
      const source = FILES[block % 3] as SourceFile;
      const keys = { ids: [] as number[], codes: [] as string[], oibs: [] as string[], positions: [] as number[] };
      for (let k = 0; k < 1000; k++) {
        // Mostly new OIBs, some repeated (from any file), some records without keys, a few huge ids and codes.
        const oib =
          random() < 0.02 && seen.length > 0
            ? (seen[Math.floor(random() * seen.length)] as string)
            : String(Math.floor(random() * 1e11)).padStart(11, "0");
        const recordId = random() < 0.01 ? 2 ** 40 + id : id;
        const code = random() < 0.01 ? String(id).padStart(12, "0") : String(id).padStart(4, "0");
        const empty = random() < 0.01;
        id++;
        const position = block * 1000 + k;
        keys.ids.push(recordId);
        keys.codes.push(code);
        keys.oibs.push(empty ? "" : oib);
        keys.positions.push(position);
        if (empty) continue;
        const holder = first.get(oib);
        if (holder === undefined) {
          first.set(oib, { id: recordId, code, file: source, position });
          seen.push(oib);
          continue;
        }
        const where = `${holder.file.name}${holder.file.locateBy === "index" ? `[${holder.position}]` : `:${holder.position}`}`;
        expected.push(
          `${source.name}:${position} warning "${oib}" id ${recordId} (code ${code}) and id ${holder.id} (code ${holder.code}, at ${where}) have the same OIB: the same institution twice?`,
        );
      }
      await check.add(keys as OibKeys, source, false);
    }
    await check.finish(problems);
    expect(expected.length).toBeGreaterThan(500);
    expect(problems.problems.map(said)).toEqual(expected);
  });

  it("parts spilled and filled again many times, one part read back after a larger one, a block's entries larger than a part: every repeat found", async () => {
    // Part 0 holds OIBs below 1e11/64, part 1 the next 1e11/64, so those two parts spill again and
    // again (their buffers used again each time); part 1's file is the smaller, read back after
    // part 0's into the same buffer. Block 0 names each subject at length (its entries pass a part's
    // bytes at once). Every entry is a multiple of 54 bytes (48 + a code of 6 + a name of 0 or 324),
    // so bytes of part 0 left after part 1's in that buffer would read as part 0's entries again.
    // The warnings are those of a map of first holders.
    const check = new OibCheck();
    const problems = new ProblemCollector(Number.POSITIVE_INFINITY);
    const first = new Map<string, number>();
    const seen: string[] = [];
    const expected: [number, string][] = [];
    let seed = 11;
    const random = (): number => (seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) / 4294967296;
    const partWidth = 1e11 / 64;
    for (let block = 0; block < 150; block++) {
      const oibs: string[] = [];
      const lines: string[] = [];
      for (let k = 0; k < 1000; k++) {
        const position = block * 1000 + k;
        const oib =
          random() < 0.01 && seen.length > 0
            ? (seen[Math.floor(random() * seen.length)] as string)
            : String(Math.floor(random() * (random() < 0.7 ? partWidth : 2 * partWidth))).padStart(11, "0");
        oibs.push(oib);
        lines.push(
          `{"id":${position + 1},"jedinstvena_oznaka":"${String(position + 1).padStart(6, "0")}","naziv_subjekta":"${"x".repeat(block === 0 ? 324 : 0)}"}\n`,
        );
        if (first.has(oib)) expected.push([position, `"${oib}"`]);
        else (first.set(oib, position), seen.push(oib));
      }
      const ids = oibs.map((_, k) => block * 1000 + k + 1);
      const keys = { ids, codes: ids.map((id) => String(id).padStart(6, "0")), oibs, positions: ids.map((id) => id - 1) };
      const encoder = new TextEncoder();
      const named =
        block === 0
          ? { bytes: encoder.encode(lines.join("")), ends: lines.map((_, k) => encoder.encode(lines.slice(0, k + 1).join("")).length) }
          : {};
      await check.add({ ...keys, ...named }, FILES[0] as SourceFile, false);
    }
    await check.finish(problems);
    expect(expected.length).toBeGreaterThan(1000);
    expect(problems.problems.map((p) => [p.index, p.value])).toEqual(expected);
    expect(problems.problems[0]).toMatchObject({ subject: { name: "x".repeat(324) } });
    expect(problems.problems[0]?.index).toBeLessThan(1000);
  });

  it("finds each OIB held twice among OIBs alike in their low 32 bits (one slot of its table), met in turns", async () => {
    const check = new OibCheck();
    const problems = new ProblemCollector(Number.POSITIVE_INFINITY);
    // 0, 2^32, 2·2^32 …: one part, one hash; each held twice, the second holders after all the first.
    const oibs = Array.from({ length: 20 }, (_, k) => String(k * 2 ** 32).padStart(11, "0"));
    const both = [...oibs, ...oibs];
    const keys = { ids: both.map((_, k) => k + 1), codes: both.map((_, k) => String(k + 1)), oibs: both, positions: both.map((_, k) => k) };
    await check.add(keys, FILES[0] as SourceFile, false);
    await check.finish(problems);
    expect(problems.problems.map((p) => [p.index, p.value])).toEqual(oibs.map((oib, k) => [20 + k, `"${oib}"`]));
  });

  it("the same record in two sources is left to the id rule; 00000000000 is an OIB like any other", async () => {
    const check = new OibCheck();
    const problems = new ProblemCollector(Number.POSITIVE_INFINITY);
    const keys = { ids: [1, 2], codes: ["0001", "0002"], oibs: ["00000000000", "12345678903"], positions: [0, 1] };
    await check.add(keys, FILES[0] as SourceFile, false);
    await check.add(keys, FILES[1] as SourceFile, false);
    await check.add({ ids: [3], codes: ["0003"], oibs: ["00000000000"], positions: [4] }, FILES[2] as SourceFile, true);
    await check.finish(problems);
    expect(problems.problems.map(said)).toEqual([
      'c.json:4 error "00000000000" id 3 (code 0003) and id 1 (code 0001, at a.json[0]) have the same OIB: the same institution twice?',
    ]);
  });

  it("a spreadsheet's first holder is named by its row (`row 47`, not the range `subjekti!47:47`), and the subject warned at by its id and name", async () => {
    const check = new OibCheck();
    const problems = new ProblemCollector(Number.POSITIVE_INFINITY);
    const sheet: SourceFile = { ...file("x.xlsx", "line"), kind: "xlsx", sheet: { name: "subjekti", columns: new Map([["oib", "D"]]) } };
    const records = ['{"id":1,"naziv_subjekta":"Prva"}\n', '{"id":2,"naziv_subjekta":"Druga <&>"}\n'];
    const bytes = new TextEncoder().encode(records.join(""));
    const ends = [records[0]?.length ?? 0, bytes.length];
    await check.add(
      { ids: [1, 2], codes: ["0001", "0002"], oibs: ["12345678903", "12345678903"], positions: [47, 48], bytes, ends },
      sheet,
      false,
    );
    await check.finish(problems);
    const [warning] = problems.problems;
    expect(warning).toMatchObject({ cell: "subjekti!D48", subject: { id: 2, name: "Druga <&>" } });
    const hint = (warning as Problem).hint as NonNullable<Problem["hint"]>;
    expect(ENGLISH.say(hint)).toBe(
      "id 2 (code 0002) and id 1 (code 0001, at x.xlsx!subjekti, row 47) have the same OIB: the same institution twice?",
    );
    expect(translator("hr").say(hint)).toBe(
      "id 2 (oznaka 0002) i id 1 (oznaka 0001, na x.xlsx!subjekti, redak 47) imaju isti OIB: ista ustanova dvaput?",
    );
  });

  it("a record whose name is not where a rendered record has it (after the id and code) is still named: its key searched for", async () => {
    const lines = [
      '{"id":1,"jedinstvena_oznaka":"0001","naziv_subjekta":"Prva"}\n',
      // Another field first: the name key is not at the rendered place, and a look there alone would take "x"'s bytes.
      '{"id":22,"jedinstvena_oznaka":"0022","x":"naziv_subjekta","naziv_subjekta":"Druga"}\n',
    ];
    const encoder = new TextEncoder();
    const bytes = encoder.encode(lines.join(""));
    const ends = lines.map((_, k) => encoder.encode(lines.slice(0, k + 1).join("")).length);
    const check = new OibCheck();
    const problems = new ProblemCollector(Number.POSITIVE_INFINITY);
    const keys = { ids: [1, 22], codes: ["0001", "0022"], oibs: ["12345678903", "12345678903"], positions: [0, 1], bytes, ends };
    await check.add(keys, FILES[0] as SourceFile, false);
    await check.finish(problems);
    expect(problems.problems).toHaveLength(1);
    expect(problems.problems[0]).toMatchObject({ index: 1, subject: { id: 22, name: "Druga" } });
  });

  it("a cached block's names are read back only for the subjects warned at, each record alone, its bytes never taken as it is added", async () => {
    const rendered = (names: readonly string[]): { bytes: Uint8Array; ends: number[] } => {
      const lines = names.map((name, k) => `{"id":${k},"jedinstvena_oznaka":"000${k}","naziv_subjekta":${JSON.stringify(name)}}\n`);
      const bytes = new TextEncoder().encode(lines.join(""));
      return { bytes, ends: lines.map((_, k) => new TextEncoder().encode(lines.slice(0, k + 1).join("")).length) };
    };
    const blocks = [
      { ids: [1, 2], codes: ["0001", "0002"], oibs: ["12345678903", "00000000001"], positions: [0, 1], ...rendered(["Prva", "Druga"]) },
      {
        ids: [3, 4],
        codes: ["0003", "0004"],
        oibs: ["00000000002", "12345678903"],
        positions: [2, 3],
        ...rendered(["Treća", 'Četvrta "Š\\"']),
      },
      { ids: [5, 6], codes: ["0005", "0006"], oibs: ["00000000005", "00000000006"], positions: [4, 5], ...rendered(["Peta", "Šesta"]) },
    ];
    const run = async (cached: boolean): Promise<{ problems: readonly Problem[]; rereads: string[][] }> => {
      const check = new OibCheck();
      const problems = new ProblemCollector(Number.POSITIVE_INFINITY);
      const rereads = blocks.map((): string[] => []);
      for (const [b, block] of blocks.entries()) {
        // As a block from the build cache: its bytes behind a getter (read from disk), and a way to read them again.
        const keys: OibKeys =
          cached && b > 0
            ? {
                ...block,
                get bytes(): Uint8Array {
                  throw new Error("a cached block's bytes were read as it was added");
                },
                reread: (start, end) => (rereads[b]?.push(`${start}-${end}`), block.bytes.slice(start, end)),
              }
            : block;
        await check.add(keys, FILES[0] as SourceFile, false);
      }
      await check.finish(problems);
      return { problems: problems.problems, rereads };
    };
    const inMemory = await run(false);
    const cached = await run(true);
    expect(inMemory.problems).toHaveLength(1);
    expect(inMemory.problems[0]).toMatchObject({ index: 3, subject: { id: 4, name: 'Četvrta "Š\\"' } });
    expect(cached.problems).toEqual(inMemory.problems);
    // Block 1 holds the subject warned at, its record alone read again once; block 2 none, never read.
    const [, blockOne] = blocks;
    expect(cached.rereads).toEqual([[], [`${blockOne?.ends[0]}-${blockOne?.ends[1]}`], []]);
  });
});
