/**
 * Record threads (src/data/read/record-threads.ts): a block rendered in a thread must be exactly the
 * block rendered on the main thread (records, keys, problems), and a build the same site.
 */
import { mkdir, readdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { findSources } from "../../../src/data/sources/find-sources.ts";
import { readJsonArray } from "../../../src/data/sources/read-json-array.ts";
import type { BlockText } from "../../../src/data/sources/record-sink.ts";
import { type BlockTask, renderJsonBlock } from "../../../src/data/read/render-block.ts";
import type { RenderedBlock } from "../../../src/data/hand-offs.ts";

/** The module the record threads run, as the read stage names it. */
const RENDER_MODULE = new URL("../../../src/data/read/render-block.ts", import.meta.url);
import { startRecordThreads } from "../../../src/data/read/record-threads.ts";
import { snapshotTree, tempDir } from "../../file-trees.ts";
import { FIELD_NAMES } from "../../../src/data/rules/subject-fields.ts";
import { build } from "../../site/built-site.ts";
import { BASE_SUBJECTS, sourceText } from "../read-subjects.ts";

/**
 * The base list with each field of its second record in turn null, empty and "x": errors and
 * warnings of every field, each a JSON array in its own folder under `dir`.
 */
async function writeBrokenFields(dir: string): Promise<string[]> {
  const dirs: string[] = [];
  for (const field of FIELD_NAMES) {
    for (const [k, value] of [null, "", "x"].entries()) {
      const broken = join(dir, `${field}-${k}`);
      await mkdir(broken, { recursive: true });
      await writeFile(
        join(broken, "subjekti.json"),
        sourceText(
          BASE_SUBJECTS.map((s) => (s.id === 2 ? { ...s, [field]: value } : s)),
          "json",
        ),
      );
      dirs.push(broken);
    }
  }
  return dirs;
}

/** Every block of every JSON array among the fixtures and the broken fields, as the reader hands them on (texts copied: the reader reuses its buffer). */
async function fixtureBlocks(): Promise<BlockTask[]> {
  const tasks: BlockTask[] = [];
  const fixtures = (await readdir("test/fixtures")).map((name) => `test/fixtures/${name}`);
  for (const dir of [...fixtures, ...(await writeBrokenFields(join(work, "broken")))]) {
    for (const file of (await findSources(dir)).files) {
      if (file.locateBy !== "index") continue;
      const copy = (text: BlockText): BlockText => ({ ...text, bytes: new Uint8Array(text.bytes) });
      // Each block as it is and with --strict (warnings become errors).
      const sink = {
        block: (_: unknown, text: BlockText) =>
          tasks.push({ file, strict: false, text: copy(text) }, { file, strict: true, text: copy(text) }),
        record() {},
      };
      await readJsonArray(file, sink, []);
    }
  }
  return tasks;
}

/** A block as the main thread renders it: without the thread's `done`, which gives its buffer back. */
function withoutDone(block: RenderedBlock): RenderedBlock {
  const { done, ...rest } = block;
  expect(done).toBeTypeOf("function");
  return rest;
}

let work: string;
beforeAll(async () => {
  work = await tempDir("subjekti-threads-");
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe("reading in record threads", () => {
  it("renders every block of every fixture and broken field as the main thread does: records, keys and problems", async () => {
    const tasks = await fixtureBlocks();
    expect(tasks.length).toBeGreaterThan(60);
    const threads = startRecordThreads(2, RENDER_MODULE);
    try {
      const inThreads = await Promise.all(tasks.map(async (task) => withoutDone(await threads.render(task))));
      expect(inThreads).toEqual(tasks.map((task) => renderJsonBlock(task)));
    } finally {
      await threads.close();
    }
  });

  it("renders blocks one after another into the text and rendered buffers given back, whatever their sizes", async () => {
    const tasks = await fixtureBlocks();
    // Large and small in turn: a small text goes into a large buffer given back, a large one needs a new buffer.
    const bySize = [...tasks].sort((a, b) => a.text.bytes.length - b.text.bytes.length);
    const turns = bySize.flatMap((task, i) => (i % 2 === 0 ? [task, bySize[bySize.length - 1 - i] as BlockTask] : []));
    expect(new Set(turns.map((t) => t.text.bytes.length)).size).toBeGreaterThan(10);
    const threads = startRecordThreads(1, RENDER_MODULE);
    try {
      let reused = 0;
      let last: RenderedBlock | undefined;
      for (const task of turns) {
        const block = await threads.render(task);
        // The last block's buffer, given back, went to the thread with this task (transferred: empty here now).
        if (last !== undefined && last.bytes.buffer.byteLength === 0) reused++;
        expect(withoutDone(block)).toEqual(renderJsonBlock(task));
        // Its bytes read no more: their buffer takes a later block's (RenderedBlock.done).
        block.done?.();
        last = block;
      }
      expect(reused).toBe(turns.length - 1);
    } finally {
      await threads.close();
    }
  });

  it("builds the sample into the same tree as without threads", async () => {
    const [a, b] = [join(work, "threads-0"), join(work, "threads-2")];
    await build("data", a, { threads: 0, limits: [7, 20] });
    await build("data", b, { threads: 2, limits: [7, 20] });
    expect(await snapshotTree(b)).toEqual(await snapshotTree(a));
  });

  it("a block a thread cannot do fails the read, and the threads stop", async () => {
    const threads = startRecordThreads(1, RENDER_MODULE);
    const file = { name: "x.json", path: "x.json", locateBy: "index", kind: "json" } as const;
    // No `starts`: rendering the block throws inside the thread.
    const broken = { first: 0, bytes: new Uint8Array([0x7b, 0x7d]), lines: [1] } as unknown as Parameters<typeof threads.render>[0]["text"];
    await expect(threads.render({ file, strict: false, text: broken })).rejects.toThrow(/undefined/);
    await threads.close();
  });
});
