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
      "search",
    ]) {
      expect(
        one.some((k) => k.startsWith(`${kind} `)),
        kind,
      ).toBe(true);
    }
  });

  it("the router's other routes: the API root, a subject found by id, code and OIB, one missing, and the filters together", () => {
    const subject = { id: 1234, code: "0042", oib: "02601815905", name: "Grad Zagreb", town: "Zagreb" };
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

  it("the search, the filters and the ordering, their 400s and the detail route under them; with a subject, its name's word (without marks, lower-cased) and its town, and its pages for people", () => {
    const subject = { id: 7, code: "0003", oib: "02601815905", name: "Dječji vrtić „Sunce” Đakovo", town: "Đakovo" };
    const planned = (options: Parameters<typeof planProbes>[1], kind: string): string[] =>
      planProbes(manifest, options)
        .filter((p) => p.kind === kind)
        .map((p) => p.target);
    const alone = planned({ seed: 1 }, "search");
    for (const parameter of [
      "search=",
      "razina=lokalna",
      "datum_postanka__gte=",
      "odobreno=",
      "ordering=-naziv_subjekta",
      "razina=regionalna",
    ])
      expect(
        alone.some((t) => t.includes(parameter)),
        parameter,
      ).toBe(true);
    expect(planned({ seed: 1 }, "page")).toEqual([]);
    expect(planned({ seed: 1, subject }, "search")).toEqual([
      ...alone,
      "/api/subjekti/?search=djecji",
      "/api/subjekti/?search=djecji&ordering=naziv_subjekta&limit=2",
      "/api/subjekti/?institucija_grad=%C4%90akovo&limit=3",
      "/api/subjekti/7/?search=djecji",
      "/api/subjekti/7/?oib=00000000000",
      "/api/subjekti/7/?razina=x",
    ]);
    expect(planned({ seed: 1, subject }, "page")).toEqual(["/subjekti/7/", "/trazi/?search=djecji"]);
    // Every target is ASCII, as the sender requires.
    for (const probe of planProbes(manifest, { seed: 1, subject })) expect(probe.target).toMatch(/^[\x21-\x7e]+$/);
  });
});
