/**
 * The build is a composition of sibling stages (src/site/build-site.ts): each stage takes the
 * previous one's hand-off (data/hand-offs.ts, site/hand-offs.ts) and none reaches another, through
 * any chain of imports, types included. Read from src/'s own imports (test/architecture/read-imports.ts).
 */
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { readImports } from "./read-imports.ts";

/** The stages, in the order the composition calls them. */
const STAGES = [
  "data/read/read-blocks.ts",
  "data/order/order-blocks.ts",
  "site/chunk-records.ts",
  "site/write-site.ts",
  "site/write-plain-site.ts",
  "export/write-downloads.ts",
  "site/plan-site.ts",
  "site/docs/plan-docs.ts",
  "feed/write-feed.ts",
];
const COMPOSITION = "site/build-site.ts";
/** The read's own composition (read, order, judge), which the build and the other commands call. */
const READ = "data/read/read-records.ts";

const { modules, edges } = readImports(resolve("src"));

/** Every module `from` reaches through imports of any kind. */
function reached(from: string): Set<string> {
  const seen = new Set<string>();
  const todo = [from];
  while (todo.length > 0) {
    const at = todo.pop() as string;
    for (const edge of edges) {
      if (edge.from === at && !seen.has(edge.to)) {
        seen.add(edge.to);
        todo.push(edge.to);
      }
    }
  }
  return seen;
}

describe("the build's stages are siblings", () => {
  it("every stage and the composition exist", () => {
    for (const name of [...STAGES, COMPOSITION, READ]) expect(modules, name).toContain(name);
  });

  it.each(STAGES)("%s reaches no other stage and not the composition", (stage) => {
    const reach = reached(stage);
    expect(
      STAGES.filter((other) => other !== stage && reach.has(other)),
      `${stage} reaches`,
    ).toEqual([]);
    expect(reach.has(COMPOSITION)).toBe(false);
    expect(reach.has(READ)).toBe(false);
  });

  it("the composition calls every stage itself", () => {
    const direct = new Set(edges.filter((e) => (e.from === COMPOSITION || e.from === READ) && e.kind === "value").map((e) => e.to));
    expect(STAGES.filter((stage) => !direct.has(stage))).toEqual([]);
  });
});
