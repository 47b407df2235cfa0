/**
 * One writer per output: the lock refuses a second taker in one line naming the holder, lets a
 * waiting one in once released, and takes over the lock of a dead process, once, however many
 * find it stale at the same moment.
 */
import { spawnSync } from "node:child_process";
import { readdir, readFile, writeFile } from "node:fs/promises";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { lockPathOf, takeOutputLock } from "../../src/common/output-lock.ts";
import { ENGLISH } from "../../src/common/messages/translate.ts";
import { useTempDir } from "../file-trees.ts";

const work = useTempDir();

/** The id of a process that has ended. */
function deadPid(): number {
  return spawnSync(process.execPath, ["-e", "0"]).pid as number;
}

describe("the output lock", () => {
  it("is a hidden file beside the output, naming this process; released, it is gone", async () => {
    const out = join(work.path, "a", "dist");
    const lock = await takeOutputLock(out, "--out dist", { wait: false, command: "build" });
    expect(lock.path).toBe(join(work.path, "a", ".dist.lock"));
    expect(JSON.parse(await readFile(lock.path, "utf8"))).toMatchObject({ pid: process.pid, host: hostname(), command: "build" });
    await lock.release();
    expect(await readdir(join(work.path, "a"))).toEqual([]);
  });

  it("a second taker is refused in one line naming the holder; with wait it gets the lock once released", async () => {
    const out = join(work.path, "b");
    const first = await takeOutputLock(out, "--out b", { wait: false, command: "build" });
    await expect(takeOutputLock(out, "--out b", { wait: false, command: "build" })).rejects.toThrow(
      new RegExp(
        `^--out b is being written by process ${process.pid} \\(subjekti build since [0-9T:.Z-]+\\): wait for it to finish, or pass --wait to wait for it$`,
      ),
    );
    const notices: string[] = [];
    let second = false;
    const waiting = takeOutputLock(out, "--out b", {
      wait: true,
      command: "export",
      pollMs: 10,
      notice: (line) => notices.push(ENGLISH.say(line)),
    }).then((lock) => {
      second = true;
      return lock;
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(second).toBe(false);
    await first.release();
    const lock = await waiting;
    expect(notices).toEqual([expect.stringMatching(/^--out b is being written by process \d+ .*: waiting for it to finish$/)]);
    await lock.release();
  });

  it("the lock of a dead process is taken over with a line saying so, by exactly one of eight takers at once", async () => {
    const out = join(work.path, "c");
    const dead = deadPid();
    await writeFile(lockPathOf(out), JSON.stringify({ pid: dead, host: hostname(), command: "build", since: "2020-01-01T00:00:00.000Z" }));
    const notices: string[] = [];
    const takers = await Promise.allSettled(
      Array.from({ length: 8 }, () =>
        takeOutputLock(out, "--out c", { wait: false, command: "build", notice: (line) => notices.push(ENGLISH.say(line)) }),
      ),
    );
    expect(takers.filter((t) => t.status === "fulfilled")).toHaveLength(1);
    expect(notices).toEqual([
      `--out c: took over the lock of process ${dead} (subjekti build since 2020-01-01T00:00:00.000Z), which is no longer running`,
    ]);
    await (takers.find((t) => t.status === "fulfilled") as PromiseFulfilledResult<{ release(): Promise<void> }>).value.release();
  });

  it("a lock of another host is never taken over: it is named, with what to do", async () => {
    const out = join(work.path, "d");
    await writeFile(
      lockPathOf(out),
      JSON.stringify({ pid: deadPid(), host: "elsewhere.example", command: "build", since: "2020-01-01T00:00:00.000Z" }),
    );
    await expect(takeOutputLock(out, "--out d", { wait: false, command: "build" })).rejects.toThrow(
      `on host elsewhere.example; if nothing runs there, remove ${lockPathOf(out)}: wait for it`,
    );
  });
});
