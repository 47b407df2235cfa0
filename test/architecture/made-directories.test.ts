/**
 * The site's writers make their directories synchronously. A signal's cleanup runs between two
 * turns of the event loop and the process exits right after it; a `mkdir` still queued in libuv's
 * thread pool then makes again the temporary the cleanup had just removed, and a stopped build
 * leaves it (a shard temporary was left so, once, with 64 of them in flight). No clock can reach
 * that window from a test, so the rule is read from the writers' source.
 */
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";

const WRITERS = ["site/write-site.ts", "site/write-plain-site.ts", "site/docs/write-crawl-files.ts"];

/** The names a module imports from node:fs/promises. */
function promiseImports(source: string): string[] {
  const names: string[] = [];
  for (const [, list] of source.matchAll(/import\s*\{([^}]*)\}\s*from\s*"node:fs\/promises"/g)) {
    names.push(...(list as string).split(",").map((name) => name.trim().replace(/^type\s+/, "")));
  }
  return names.filter((name) => name !== "");
}

describe("the site's writers", () => {
  it.each(WRITERS)("%s makes its directories with mkdirSync, never the thread pool's mkdir", (writer) => {
    const source = readFileSync(resolve("src", writer), "utf8");
    expect(promiseImports(source)).not.toContain("mkdir");
    expect(source).not.toMatch(/\bpromises\.mkdir\b|\bfs\.mkdir\(/);
    expect(source).toMatch(/\bmkdirSync\(/);
  });
});
