/** The process tests run the compiled CLI only while no source is newer than it (test/cli-entry.ts). */
import { mkdir, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliEntry } from "./cli-entry.ts";
import { useTempDir } from "./file-trees.ts";

describe("the CLI a process test starts", () => {
  const dir = useTempDir();

  /** A checkout whose lib/ was compiled at second 2000 and whose sources were written at `sources` (path -> second). */
  async function checkout(sources: Record<string, number>): Promise<string> {
    const repo = join(dir.path, String(Math.random()).slice(2));
    await mkdir(join(repo, "lib/cli"), { recursive: true });
    await writeFile(join(repo, "lib/cli/main.js"), "");
    await utimes(join(repo, "lib/cli/main.js"), 2000, 2000);
    for (const [path, at] of Object.entries(sources)) {
      await mkdir(join(repo, path, ".."), { recursive: true });
      await writeFile(join(repo, path), "");
      await utimes(join(repo, path), at, at);
    }
    return repo;
  }

  it("is lib/ when every source is older, the sources through tsx when one deep below src/ is newer or lib/ is missing", async () => {
    const current = await checkout({ "src/cli/main.ts": 1000, "src/site/search/a.ts": 1999, "src/threads/t.mjs": 1500 });
    expect(cliEntry(current, false)).toEqual([join(current, "lib/cli/main.js")]);
    const edited = await checkout({ "src/cli/main.ts": 1000, "src/site/search/a.ts": 2001 });
    expect(cliEntry(edited, false)).toEqual(["--import", "tsx", join(edited, "src/cli/main.ts")]);
    const mjs = await checkout({ "src/cli/main.ts": 1000, "src/threads/t.mjs": 2001 });
    expect(cliEntry(mjs, false)[0]).toBe("--import");
    const forced = await checkout({ "src/cli/main.ts": 1000 });
    expect(cliEntry(forced, true)[0]).toBe("--import");
  });

  it("is lib/ when only the edge function (which Deno runs, uncompiled) or a note is newer", async () => {
    const repo = await checkout({ "src/cli/main.ts": 1000, "src/edge/subjekti.ts": 3000, "src/core/notes.md": 3000 });
    expect(cliEntry(repo, false)).toEqual([join(repo, "lib/cli/main.js")]);
  });
});
