/**
 * The search stage of an edit patched from the previous site (src/site/search/patch-search.ts):
 * after each edit, a cached rebuild over the previous site, and every search file it wrote compared
 * byte for byte with what the whole stage (planSearch) writes from the same chunk files, with the
 * manifest naming the whole stage's hashes. Which way the stage went is read from its counters
 * (searchPaths), not the clock: the edits meant to be patched are, and those past what the patch
 * handles (a rename across the list, too many records, a subject added) fall back to the whole
 * stage. A failure inside the patch leaves the site as it was.
 */
import { rm } from "node:fs/promises";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { editSubject, makeSubject, seedFromText } from "../../../scripts/generate-subjects.ts";
import type { Subject } from "../../../src/core/render-page.ts";
import { mulberry32 } from "../../../src/common/seeded-random.ts";
import { compareText } from "../../../src/core/search/match-record.ts";
import { searchPaths } from "../../../src/site/search/patch-search.ts";
import { snapshotTree, tempDir } from "../../file-trees.ts";
import { build } from "../built-site.ts";
import { PatchedSite } from "./patched-site.ts";

const COUNT = 20_000;
const SEED = seedFromText("7");

let work: string;
let site: PatchedSite;
let subjects: Subject[];

beforeAll(async () => {
  work = await tempDir("subjekti-search-patch-");
  subjects = Array.from({ length: COUNT }, (_, i) => makeSubject(SEED, i));
  site = new PatchedSite(work, subjects);
  await site.build();
}, 300_000);
afterAll(() => rm(work, { recursive: true, force: true }));

/** Applies `edit` to the list, rebuilds over the previous site, checks the files; returns the way the stage went. */
const rebuilt = (edit: () => void): Promise<"patched" | "whole"> => site.rebuilt(edit);

const set = (i: number, change: Partial<Subject>): void => {
  subjects[i] = { ...(subjects[i] as Subject), ...change };
};
const towns = (): string[] => [...new Set(subjects.map((s) => s.institucija_grad))];

describe("the search stage of an edit, patched", () => {
  it("writes the whole stage's files for ordinary edits, by the patch", async () => {
    const edits: [string, () => void][] = [
      ["the bench's rename (a word added)", () => (subjects[500] = editSubject(subjects[500] as Subject))],
      ["a word added to a name", () => set(1234, { naziv_subjekta: `${(subjects[1234] as Subject).naziv_subjekta} Novi` })],
      ["a town changed", () => set(42, { institucija_grad: towns()[3] as string })],
      ["a date changed", () => set(777, { datum_postanka: "1999-12-31" })],
      ["a flag changed", () => set(9000, { status_subjekta: !(subjects[9000] as Subject).status_subjekta })],
      ["odobreno changed", () => set(9001, { odobreno: !(subjects[9001] as Subject).odobreno })],
      ["a code changed", () => set(15_000, { jedinstvena_oznaka: `0${(subjects[15_000] as Subject).jedinstvena_oznaka}` })],
      ["a word taken out again", () => set(1234, { naziv_subjekta: (subjects[1234] as Subject).naziv_subjekta.replace(/ Novi$/, "") })],
      [
        "several records at once",
        () => {
          for (const i of [3, 4000, 8000, 12_000, 19_999]) set(i, { naziv_subjekta: `${(subjects[i] as Subject).naziv_subjekta} Zrinska` });
          set(5, { institucija_grad: "Novi Grad Patchovo" });
        },
      ],
      // The groups of equal values (<f>.groups) gain and lose members, and a group goes.
      ["a town's only subject moved to another town (its group gone)", () => set(5, { institucija_grad: towns()[0] as string })],
      [
        "a name made its neighbour's in the order (the two one group)",
        () => {
          const name = (i: number): string => (subjects[i] as Subject).naziv_subjekta;
          const byName = subjects.map((_, i) => i).sort((a, b) => compareText(name(a), name(b)) || a - b);
          const at = byName.findIndex((i, k) => k > 100 && name(i) !== name(byName[k + 1] as number));
          set(byName[at] as number, { naziv_subjekta: name(byName[at + 1] as number) });
        },
      ],
    ];
    const ways: Record<string, string> = {};
    // A fallback shows its reason.
    for (const [name, edit] of edits) ways[name] = (await rebuilt(edit)) === "patched" ? "patched" : searchPaths.reason;
    expect(ways).toEqual(Object.fromEntries(edits.map(([name]) => [name, "patched"])));
  }, 600_000);

  it("writes the whole stage's files for random edits, patched or not", async () => {
    const random = mulberry32(99);
    const ways: string[] = [];
    for (let n = 0; n < 16; n++) {
      const i = Math.floor(random() * COUNT);
      const s = subjects[i] as Subject;
      const kind = n % 4;
      ways.push(
        await rebuilt(() => {
          if (kind === 0) set(i, { naziv_subjekta: `${s.naziv_subjekta} ${String.fromCharCode(65 + Math.floor(random() * 26))}rt` });
          else if (kind === 1) set(i, { institucija_grad: towns()[Math.floor(random() * 50)] as string });
          else if (kind === 2)
            set(i, { datum_postanka: `19${10 + Math.floor(random() * 89)}-0${1 + Math.floor(random() * 9)}-1${Math.floor(random() * 9)}` });
          else set(i, { naziv_subjekta: s.naziv_subjekta.split(" ").slice(0, -1).join(" ") || s.naziv_subjekta, odobreno: !s.odobreno });
        }),
      );
    }
    // Most take the patch (a cut that moves, a set leaving its slot or a far rename fall back).
    expect(ways.filter((way) => way === "patched").length).toBeGreaterThanOrEqual(8);
  }, 900_000);

  it("falls back to the whole stage past what the patch handles", async () => {
    // A name late in the order renamed to the first: every subject between moves by one.
    const late = subjects.map((s, i) => [s.naziv_subjekta, i] as const).sort((a, b) => compareText(a[0], b[0]))[Math.floor(COUNT * 0.9)];
    expect(await rebuilt(() => set(late?.[1] as number, { naziv_subjekta: "AAA prvi" }))).toBe("whole");
    expect(searchPaths.reason).toMatch(/order by name/);
    expect(
      await rebuilt(() => Array.from({ length: 70 }, (_, k) => set(100 * k, { odobreno: !(subjects[100 * k] as Subject).odobreno }))),
    ).toBe("whole");
    expect(searchPaths.reason).toMatch(/records changed/);
    expect(await rebuilt(() => subjects.push(makeSubject(SEED, COUNT)))).toBe("whole");
    expect(searchPaths.reason).toMatch(/count/);
  }, 600_000);

  it("leaves the site as it was when the patch fails", async () => {
    const before = await snapshotTree(site.out);
    process.env["SUBJEKTI_FAIL_AT"] = "search-patched";
    try {
      set(600, { naziv_subjekta: `${(subjects[600] as Subject).naziv_subjekta} Failed` });
      await site.writeData();
      await expect(build(site.data, site.out, { threads: 0 })).rejects.toThrow(/search-patched/);
    } finally {
      delete process.env["SUBJEKTI_FAIL_AT"];
    }
    expect(await snapshotTree(site.out)).toEqual(before);
  }, 300_000);
});
