/**
 * A large file sent to the disk while it is written (sync-behind.ts): an fdatasync every 32 MB, one
 * at a time, and the file closed only once the running one has returned. The syncs are seen through
 * a stand-in for fdatasync that holds each call until the test lets it return; the writers' own
 * (HashedWriter's) through the count of syncs started.
 */
import { createWriteStream } from "node:fs";
import { once } from "node:events";
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { SyncBehind, syncsStarted } from "../../src/common/sync-behind.ts";
import { HashedWriter } from "../../src/feed/hashed-writer.ts";
import { tempDir } from "../file-trees.ts";

const MB = 1 << 20;
let work: string;
beforeAll(async () => {
  work = await tempDir("subjekti-sync-behind-");
});
afterAll(() => rm(work, { recursive: true, force: true }));

/** A stand-in for fdatasync: each call held (its fd) until released. */
function heldSyncs() {
  const held: { fd: number; done: (error: Error | null) => void }[] = [];
  return {
    held,
    sync: (fd: number, done: (error: Error | null) => void): void => void held.push({ fd, done }),
    release: (): void => {
      for (const call of held.splice(0)) call.done(null);
    },
  };
}

describe("SyncBehind", () => {
  it("starts a sync of the stream's file every 32 MB written, never two at once, and settles once the running one returns", async () => {
    const out = createWriteStream(join(work, "a"));
    await once(out, "open");
    const syncs = heldSyncs();
    const behind = new SyncBehind(out, syncs.sync);
    behind.wrote(31 * MB);
    expect(syncs.held).toHaveLength(0);
    behind.wrote(MB);
    expect(syncs.held.map((call) => call.fd)).toEqual([out.fd]);
    // 40 MB more while the first is running: none started beside it.
    behind.wrote(40 * MB);
    expect(syncs.held).toHaveLength(1);
    const order: string[] = [];
    const settling = behind.settled().then(() => order.push("settled"));
    // A few turns of the event loop: nothing lets it settle but the release.
    for (let i = 0; i < 5; i++) await new Promise((resolve) => setImmediate(resolve));
    order.push("released");
    syncs.release();
    await settling;
    expect(order).toEqual(["released", "settled"]);
    // The bytes counted while it ran start the next one.
    behind.wrote(MB);
    expect(syncs.held).toHaveLength(1);
    syncs.release();
    await behind.settled();
    out.end();
    await once(out, "close");
  });

  it("starts none for a stream whose file is not open yet or has been destroyed", async () => {
    const out = createWriteStream(join(work, "b"));
    const syncs = heldSyncs();
    const behind = new SyncBehind(out, syncs.sync);
    behind.wrote(64 * MB);
    expect(syncs.held).toHaveLength(0);
    await once(out, "open");
    out.destroy();
    await once(out, "close");
    behind.wrote(64 * MB);
    expect(syncs.held).toHaveLength(0);
  });
});

describe("HashedWriter sends its file to the disk as it grows", () => {
  it("a file of 70 MB is synced while written (a file of 1 MB is not), its bytes whole", async () => {
    const write = async (name: string, megabytes: number): Promise<number> => {
      const before = syncsStarted.count;
      const path = join(work, name);
      const out = new HashedWriter(path);
      for (let i = 0; i < megabytes; i++) {
        out.add(Buffer.alloc(MB, i));
        if (out.full) await out.flush();
      }
      await out.end();
      expect((await readFile(path)).length).toBe(megabytes * MB);
      return syncsStarted.count - before;
    };
    expect(await write("small", 1)).toBe(0);
    // One at 32 MB, and one at 64 MB unless the first was still running.
    expect(await write("large", 70)).toBeGreaterThanOrEqual(1);
  });
});
