/** The dataset's descriptor (datapackage.json): validated like the data, never read as a source of subjects. */
import { existsSync } from "node:fs";
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { readFileSync } from "node:fs";
import fc from "fast-check";
import { afterEach, describe, expect, it } from "vitest";
import * as z from "zod";
import { quickMetadata, readMetadata, UNDESCRIBED, ZOD_EMAIL } from "../../../src/site/docs/dataset-metadata.ts";
import { metadataSchema } from "../../../src/site/docs/metadata-schema.ts";
import { findSources } from "../../../src/data/sources/find-sources.ts";
import { DataError, formatProblem } from "../../../src/data/problems/problems.ts";
import { tempDir } from "../../file-trees.ts";
import { build } from "../built-site.ts";

const SMALL = join(import.meta.dirname, "../../fixtures/small-site");
const GOOD = {
  title: "Registry",
  description: "Subjects.",
  sources: [{ title: "A list", path: "https://example.org/list" }],
  licenses: [{ name: "cc-by-4.0", title: "CC BY 4.0", path: "https://creativecommons.org/licenses/by/4.0/" }],
};
let root: string | undefined;
afterEach(async () => {
  if (root !== undefined) await rm(root, { recursive: true, force: true });
  root = undefined;
});

async function dataWith(descriptor: string | null): Promise<string> {
  root = await tempDir("subjekti-metadata-");
  const data = join(root, "data");
  await cp(SMALL, data, { recursive: true });
  if (descriptor !== null) await writeFile(join(data, "datapackage.json"), descriptor);
  return data;
}

describe("datapackage.json", () => {
  it("no descriptor -> the undescribed defaults, no problem", async () => {
    expect(await readMetadata(await dataWith(null))).toEqual({ metadata: UNDESCRIBED, problems: [] });
  });

  it("a valid descriptor (other Data Package fields allowed) -> its fields", async () => {
    const { metadata, problems } = await readMetadata(await dataWith(JSON.stringify({ ...GOOD, resources: [] })));
    expect(problems).toEqual([]);
    expect(metadata.licenses[0]?.title).toBe("CC BY 4.0");
  });

  it("is not read as a source at the top of the data directory, but a datapackage.json deeper down is data", async () => {
    const data = await dataWith(JSON.stringify(GOOD));
    await mkdir(join(data, "more"));
    await writeFile(join(data, "more", "datapackage.json"), "[]");
    const names = (await findSources(data)).files.map((source) => source.path.slice(data.length + 1));
    expect(names).toEqual(["a-first.json", "b-middle.ndjson", "c-last.csv", "more/datapackage.json"]);
  });

  it.each([
    ["not JSON", "{title:", /datapackage\.json: expected a JSON object \(a Data Package descriptor\)/],
    [
      "a licence without a URL",
      JSON.stringify({ ...GOOD, licenses: [{ title: "CC BY 4.0" }] }),
      /datapackage\.json: licenses\.0\.path: expected an http\(s\) URL, got nothing/,
    ],
    ["an empty title", JSON.stringify({ ...GOOD, title: " " }), /datapackage\.json: title: expected a non-empty title, got " "/],
    [
      "a typo in a source",
      JSON.stringify({ ...GOOD, sources: [{ title: "A", pth: "https://x.org" }] }),
      /sources\.0: expected only title and path .*, got pth/,
    ],
    [
      "a file: URL",
      JSON.stringify({ ...GOOD, sources: [{ title: "A", path: "file:///etc/passwd" }] }),
      /sources\.0\.path: expected an http\(s\) URL/,
    ],
    ...['">', " ", "{", "}", "|", "^", "`", "\\", "<"].map((bad): [string, string, RegExp] => [
      `a URL holding ${JSON.stringify(bad)} (WHATWG's parser mends it; an IRI may not hold it)`,
      JSON.stringify({ ...GOOD, sources: [{ title: "A", path: `https://example.org/a${bad}b` }] }),
      /sources\.0\.path: expected an http\(s\) URL that is an IRI as it stands/,
    ]),
  ])("%s -> a located error", async (_name, text, message) => {
    const { problems } = await readMetadata(await dataWith(text));
    expect(problems.map(formatProblem).join("\n")).toMatch(message);
  });

  it("a bad descriptor fails the build with exit-1 data errors and leaves the site untouched", async () => {
    const data = await dataWith(JSON.stringify({ ...GOOD, licenses: [] }));
    const out = join(root ?? "", "site");
    const failure = await build(data, out).catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(DataError);
    expect((failure as DataError).problems.map(formatProblem)).toEqual([expect.stringMatching(/licenses: expected at least one licence/)]);
    expect(existsSync(out)).toBe(false);
  });
});

describe("quickMetadata, the fast path before zod", () => {
  const SAMPLE = JSON.parse(readFileSync(join(import.meta.dirname, "../../../data/datapackage.json"), "utf8"));
  /** Texts near the edges of the schema's rules: spaces, empty, line breaks, IRIs and not, e-mail addresses and not. */
  const text = fc.constantFrom(
    "Registry",
    " Registry",
    "Registry ",
    "",
    " ",
    "a\nb",
    "https://example.org/list",
    "http://example.org/a b",
    "https://example.org/a%20b",
    "https://example.org/{x}",
    "HTTPS://EXAMPLE.ORG/",
    "https://example.org\t/",
    "https:/example.org",
    "http:example.org",
    "ftp://example.org/",
    "mailto:a@example.org",
    "https://ex ample.org/",
    "https://example.org/š",
    "https://[::1]/",
    "a@example.org",
    "a.b+c@sub.example.hr",
    "a@b",
    "a@@example.org",
    ".a@example.org",
    "publisher",
    "creator",
    "owner",
  );
  const value: fc.Arbitrary<unknown> = fc.oneof(text, fc.constant(null), fc.integer(), fc.array(text, { maxLength: 2 }));
  const object = (keys: readonly string[]) =>
    fc.dictionary(fc.constantFrom(...keys, "extra"), fc.oneof({ weight: 4, arbitrary: text }, { weight: 1, arbitrary: value }), {
      maxKeys: keys.length + 1,
    });
  const contributor = fc.oneof(
    object(["title", "path", "email"]),
    fc.record({ title: text, roles: fc.array(text, { maxLength: 3 }) }, { requiredKeys: ["title"] }),
  );
  const descriptor = fc.record(
    {
      id: text,
      title: text,
      description: text,
      name: text,
      hr: fc.oneof(object(["title", "description"]), value),
      contributors: fc.oneof(fc.array(contributor, { maxLength: 3 }), value),
      sources: fc.oneof(fc.array(object(["title", "path"]), { maxLength: 3 }), value),
      licenses: fc.oneof(fc.array(object(["name", "title", "path"]), { maxLength: 2 }), value),
      resources: value,
    },
    { requiredKeys: [] },
  );
  /** A descriptor that passes, changed at one place: most still pass, so the comparison sees both outcomes. */
  const nearSample = fc.tuple(fc.constantFrom("id", "title", "hr", "contributors", "sources", "licenses"), value).map(([key, v]) => {
    const copy = structuredClone(SAMPLE);
    if (key === "contributors" || key === "sources" || key === "licenses") copy[key][0].path = v;
    else if (key === "hr") copy.hr.title = v;
    else copy[key] = v;
    return copy;
  });

  it("never accepts a descriptor the schema rejects, and returns exactly the schema's output (its key order too) when it accepts", () => {
    let accepted = 0;
    fc.assert(
      fc.property(fc.oneof(descriptor, nearSample, fc.constant(SAMPLE), fc.constant(GOOD)), (d) => {
        const quick = quickMetadata(d);
        const parsed = metadataSchema.safeParse(d);
        if (quick !== undefined) {
          accepted++;
          expect(parsed.success).toBe(true);
          expect(JSON.stringify(quick)).toBe(JSON.stringify(parsed.data));
          expect(quick).toStrictEqual(parsed.data);
        }
      }),
      { numRuns: 3000 },
    );
    expect(accepted).toBeGreaterThan(100);
    expect(quickMetadata(SAMPLE)).toStrictEqual(metadataSchema.parse(SAMPLE));
  });

  it("tests e-mail addresses with zod's own pattern", () => {
    expect(ZOD_EMAIL.source).toBe(z.regexes.email.source);
    expect(ZOD_EMAIL.flags).toBe(z.regexes.email.flags);
  });
});
