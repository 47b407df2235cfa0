/**
 * The ordering stage (src/data/order/order-blocks.ts) decides the restart itself: input in id
 * order streams block by block; a lower id after some blocks were handed on yields "restart" and
 * every record again, sorted; a taker that cannot take records back gets them sorted from the start.
 */
import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { forEachItem } from "../../../src/common/stage-iterables.ts";
import type { OrderedItem } from "../../../src/data/hand-offs.ts";
import { orderBlocks } from "../../../src/data/order/order-blocks.ts";
import { readBlocks } from "../../../src/data/read/read-blocks.ts";
import { resolveReadOptions } from "../../../src/data/read-options.ts";
import { useTempDir } from "../../file-trees.ts";
import { BASE_SUBJECTS, sourceText } from "../read-subjects.ts";

const dir = useTempDir();
type Row = (typeof BASE_SUBJECTS)[number];
const [one, two, three] = BASE_SUBJECTS as readonly [Row, Row, Row];

/** A data directory of JSON files, read in name order. */
async function data(name: string, files: Record<string, readonly Row[]>): Promise<string> {
  const at = join(dir.path, name);
  await mkdir(at, { recursive: true });
  for (const [file, subjects] of Object.entries(files)) await writeFile(join(at, file), sourceText(subjects, "json"));
  return at;
}

/** What the stage yields, each block as its ids. */
async function order(dataDir: string, restart = true): Promise<{ items: (number[] | "restart")[]; count: number }> {
  const items: (number[] | "restart")[] = [];
  const summary = await forEachItem(
    orderBlocks(() => readBlocks(resolveReadOptions({ dataDir, strict: false, threads: 0 })), restart),
    (item: OrderedItem) => {
      items.push(item.kind === "restart" ? "restart" : Array.from(item.block.ids));
    },
  );
  return { items, count: summary.count };
}

describe("orderBlocks", () => {
  it("input in id order across files -> each file's block as read, no restart", async () => {
    expect(await order(await data("sorted", { "a.json": [one, two], "b.json": [three] }))).toEqual({ items: [[1, 2], [3]], count: 3 });
  });

  it("a lower id after a block was handed on -> that block, then restart, then every record sorted", async () => {
    expect(await order(await data("unsorted", { "a.json": [two, three], "b.json": [one] }))).toEqual({
      items: [[2, 3], "restart", [1, 2, 3]],
      count: 3,
    });
  });

  it("no restart asked -> the records sorted from the start, never a restart", async () => {
    expect(await order(await data("unsorted-no-restart", { "a.json": [two, three], "b.json": [one] }), false)).toEqual({
      items: [[1, 2, 3]],
      count: 3,
    });
  });
});
