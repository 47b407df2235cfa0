/**
 * A build whose sources are not the sizes the last build recorded knows they changed: it does not
 * wait for their bytes' hash before it reads, but takes it in a thread beside the build, and
 * records it, so that the rebuild after it does nothing (unchanged-build.ts). Which way each hash
 * went is counted (inputsHashed); the record is read beside the build cache.
 */
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import type { Subject } from "../../src/core/render-page.ts";
import { cacheDirOf } from "../../src/data/read/build-cache.ts";
import { inputsHashed } from "../../src/site/unchanged/hash-inputs.ts";
import { tempDir } from "../file-trees.ts";
import { writeDataset } from "./build-processes.ts";
import { build } from "./built-site.ts";

let work: string;
beforeAll(async () => {
  work = await tempDir("subjekti-inputs-aside-");
}, 60_000);
afterAll(() => rm(work, { recursive: true, force: true }));

it("an edit that changes the source's size: hashed in a thread beside the build and recorded; the rebuild after it does nothing", async () => {
  const data = join(work, "data");
  const out = join(work, "site");
  await writeDataset(data, 2, 0);
  /** The build of `data`: which way its inputs were hashed, and the hash it recorded. */
  const counted = async () => {
    const [here, aside] = [inputsHashed.here, inputsHashed.aside];
    const report = await build(data, out, { feed: true });
    const record = JSON.parse(await readFile(`${cacheDirOf(`${out}.cache`, out)}.last-build.json`, "utf8")) as { inputs: string };
    return { report, here: inputsHashed.here - here, aside: inputsHashed.aside - aside, recorded: record.inputs };
  };
  // No record yet: hashed here.
  const first = await counted();
  expect(first).toMatchObject({ here: 1, aside: 0 });
  expect(await counted()).toMatchObject({ here: 1, aside: 0, recorded: first.recorded });

  const subjects = JSON.parse(await readFile(join(data, "subjekti.json"), "utf8")) as Subject[];
  const edited = subjects[100] as Subject;
  subjects[100] = { ...edited, naziv_subjekta: `${edited.naziv_subjekta} (preimenovan)` };
  await writeFile(join(data, "subjekti.json"), JSON.stringify(subjects));
  const edit = await counted();
  expect(edit).toMatchObject({ here: 0, aside: 1 });
  expect(edit.report.feed?.upserts).toBe(1);
  // The thread's hash was recorded, and is the one taken here of the same inputs.
  expect(edit.recorded).toMatch(/^[0-9a-f]{64}$/);
  expect(edit.recorded).not.toBe(first.recorded);
  expect(await counted()).toMatchObject({ here: 1, aside: 0, recorded: edit.recorded, report: { written: 0 } });
}, 120_000);
