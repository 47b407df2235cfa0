/**
 * The requests `subjekti check` plans: the pre-rendered pages' URLs are exactly the links the built
 * pages hold (followed from the files, not recomputed), and `--sample` is seeded and keeps the first
 * page of each form and limit.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Form } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { planProbes, type Probe } from "../../src/check/plan-probes.ts";
import { buildFixture } from "../hosts/fixture-site.ts";
import { readPages } from "../site/built-site.ts";

let fixture: Awaited<ReturnType<typeof buildFixture>>;
let manifest: Manifest;
beforeAll(async () => {
  fixture = await buildFixture();
  manifest = fixture.manifest;
});
afterAll(() => fixture?.remove());

const preRendered = (probes: readonly Probe[]): string[] => probes.filter((p) => p.kind === "pre-rendered").map((p) => p.target);
/** A link as the target a client sends for it. */
const target = (link: string): string => link.slice(new URL(link).origin.length);

describe("planProbes", () => {
  it.each<[Form, number]>([
    ["plain", 7],
    ["plain", 20],
    ["api", 7],
    ["api", 20],
  ])("the %s pages of limit %i are asked at the URLs their own next and previous links give", async (form, limit) => {
    const pages = (await readPages(fixture.dir, form, limit)).map(
      (text) => JSON.parse(text) as { next: string | null; previous: string | null },
    );
    const planned = preRendered(planProbes(manifest, { seed: 1 })).filter(
      (t) => t.includes(`limit=${limit}`) && t.includes("format=api") === (form === "api"),
    );
    expect(planned).toHaveLength(pages.length);
    pages.forEach((page, i) => {
      if (page.next !== null) expect(target(page.next)).toBe(planned[i + 1]);
      if (page.previous !== null) expect(target(page.previous)).toBe(planned[i - 1]);
    });
    expect(pages[1]?.previous).toMatch(/\?(format=api&)?limit=\d+$/);
  });

  it("--sample: that many pages, the first of each form and limit among them, the same for a seed and another for another seed", () => {
    const all = preRendered(planProbes(manifest, { seed: 1 }));
    const [a, b, c] = [1, 1, 7].map((seed) => preRendered(planProbes(manifest, { sample: 9, seed }))) as [string[], string[], string[]];
    expect(a).toHaveLength(9);
    expect(a).toEqual(b);
    expect(c).not.toEqual(a);
    for (const first of all.filter((t) => !t.includes("offset="))) expect(a).toContain(first);
    // In the order of the full list, a subset of it.
    expect(a).toEqual(all.filter((t) => a.includes(t)));
  });

  it("derived pages differ with the seed; the contract's other answers are always asked", () => {
    const kinds = (seed: number): string[] => planProbes(manifest, { seed }).map((p) => `${p.kind} ${p.method} ${p.target}`);
    const [one, two] = [kinds(1), kinds(2)];
    expect(one.filter((k) => k.startsWith("derived"))).not.toEqual(two.filter((k) => k.startsWith("derived")));
    for (const kind of [
      "head",
      "conditional",
      "preflight",
      "options",
      "redirect",
      "not-found",
      "not-allowed",
      "not-acceptable",
      "published",
      "lookup",
    ]) {
      expect(
        one.some((k) => k.startsWith(`${kind} `)),
        kind,
      ).toBe(true);
    }
  });

  it("the router's other routes: the API root, a subject found by id, code and OIB, one missing, and the filters together", () => {
    const subject = { id: 1234, code: "0042", oib: "02601815905" };
    const lookups = (options: Parameters<typeof planProbes>[1]): string[] =>
      planProbes(manifest, options)
        .filter((p) => p.kind === "lookup")
        .map((p) => p.target);
    expect(lookups({ seed: 1 })).toEqual([
      "/api/",
      "/api/.json",
      "/api/subjekti/0/",
      "/api/subjekti/?oib=00000000000",
      "/api/subjekti.json?limit=3",
    ]);
    expect(lookups({ seed: 1, subject })).toEqual([
      ...lookups({ seed: 1 }),
      "/api/subjekti/1234/",
      "/api/subjekti/1234.json",
      "/api/subjekti/?oib=02601815905",
      "/api/subjekti/?jedinstvena_oznaka=0042",
      "/api/subjekti/?jedinstvena_oznaka=0042&oib=02601815905",
    ]);
  });
});
