/** The dataset's descriptor (datapackage.json): validated like the data, never read as a source of subjects. */
import { existsSync } from "node:fs";
import { cp, mkdir, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { readMetadata, UNDESCRIBED } from "../../../src/site/docs/dataset-metadata.ts";
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
