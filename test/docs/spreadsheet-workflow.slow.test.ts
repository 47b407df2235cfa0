/**
 * The manual's spreadsheet workflow (docs/data.md), run as written in a copy of the repository's
 * data: export, move the workbook into data/ in place of the JSON, build; the same site as the JSON
 * builds. The commands run as the manual writes them, in a shell, each a process: `npm test` runs
 * it, the fast rings leave it out (export -> build in this process: test/export/safe-export.test.ts).
 * Export's refusals: test/export/export-refusals.test.ts. What the workbook does for whoever edits
 * it: test/export/workbook-helpers.slow.test.ts.
 */
import { execFileSync } from "node:child_process";
import { cp, mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { snapshotTree, useTempDir } from "../file-trees.ts";

const work = useTempDir();

/** The block of commands under "The spreadsheet workflow" in docs/data.md. */
async function recipe(): Promise<string[]> {
  const page = await readFile("docs/data.md", "utf8");
  const section = page.slice(page.indexOf("## The spreadsheet workflow"));
  const block = /```sh\n([\s\S]*?)```/.exec(section)?.[1] ?? "";
  return block
    .split("\n")
    .map((line) => line.replace(/\s+#.*$/, "").trim())
    .filter((line) => line !== "");
}

describe("the spreadsheet workflow of docs/data.md", () => {
  beforeAll(async () => {
    await mkdir(join(work.path, "repo"));
    await cp("data", join(work.path, "repo", "data"), { recursive: true });
  });

  it("runs as written (export, the workbook in place of the JSON, build) and builds the JSON's site", async () => {
    const repo = join(work.path, "repo");
    const cli = join(process.cwd(), "bin/subjekti.js");
    // One date for the data of both builds: the descriptions carry it (else each source's modification time).
    const env = { ...process.env, SOURCE_DATE_EPOCH: "1700000000" };
    execFileSync(
      process.execPath,
      [cli, "build", "--data", join(process.cwd(), "data"), "--out", join(work.path, "json-site"), "--no-cache", "--quiet", "--no-feed"],
      { stdio: "ignore", env },
    );
    execFileSync("git", ["init", "-q"], { cwd: repo });
    // The JSON is committed, as in the project.
    execFileSync("git", ["add", "data"], { cwd: repo });
    execFileSync("git", ["-c", "user.name=t", "-c", "user.email=t@example.org", "commit", "-q", "-m", "data"], { cwd: repo });
    const commands = await recipe();
    expect(commands).toHaveLength(3);
    for (const line of commands) {
      // `npx subjekti` and `npm run build` are this checkout's CLI; the rest runs in a shell as written.
      const command = line
        .replace(/^npx subjekti /, `node ${cli} `)
        .replace(/^npm run build$/, `node ${cli} build --out site --no-cache --quiet --no-feed`);
      execFileSync("bash", ["-c", command], { cwd: repo, stdio: "pipe", env });
    }
    expect(await snapshotTree(join(repo, "site"))).toEqual(await snapshotTree(join(work.path, "json-site")));
  }, 120_000);
});
