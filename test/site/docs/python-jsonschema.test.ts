/**
 * The published schemas as a Python client reads them: Debian's python3-jsonschema (the validator
 * most Python code uses) validates every pre-rendered page of the sample against /schema/page.json
 * beside ajv, compiles every pattern of the OpenAPI document with Python's `re`, and refuses what
 * zod refuses. A pattern outside the interoperable subset (`\p{Ll}`) fails here with "bad escape \p".
 *
 * Without a Python that has jsonschema the test skips, saying so, unless SUBJEKTI_REQUIRE_PYTHON=1
 * (CI installs Debian's python3-jsonschema), where that is a failure.
 */
import { spawnSync } from "node:child_process";
import { readFile, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DOCS_SHARD_KEY, PUBLISHED_FILES } from "../../../src/core/published-files.ts";
import { subjectSchema } from "../../../src/site/docs/api-schemas.ts";
import { tempDir } from "../../file-trees.ts";
import { build, readManifest, readPages } from "../built-site.ts";

const SAMPLE = join(import.meta.dirname, "../../../data");

/** Debian's python3 first (where python3-jsonschema installs), else the one on PATH. */
const PYTHON = ["/usr/bin/python3", "python3"].find((python) => spawnSync(python, ["-c", "import jsonschema"]).status === 0) ?? null;
const REQUIRE = process.env["SUBJEKTI_REQUIRE_PYTHON"] === "1";
if (PYTHON === null && !REQUIRE)
  console.warn("python jsonschema test skipped: no python3 with jsonschema (apt-get install python3-jsonschema)");

/** Validates each page file against the page schema; compiles every pattern of the OpenAPI document; prints one JSON line. */
const SCRIPT = `
import json, re, sys
from jsonschema import Draft202012Validator
page_schema, openapi, *pages = sys.argv[1:]
schema = json.load(open(page_schema, encoding="utf-8"))
Draft202012Validator.check_schema(schema)
validator = Draft202012Validator(schema)
patterns = []
def walk(node):
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "pattern" and isinstance(value, str): patterns.append(value)
            else: walk(value)
    elif isinstance(node, list):
        for value in node: walk(value)
walk(json.load(open(openapi, encoding="utf-8")))
walk(schema)
for pattern in patterns: re.compile(pattern)
results = []
for path in pages:
    errors = [error.message for error in validator.iter_errors(json.load(open(path, encoding="utf-8")))]
    results.append(errors[:3])
print(json.dumps({"patterns": len(patterns), "results": results}))
`;

let root: string;
let site: string;

async function published(path: string): Promise<string> {
  const manifest = await readManifest(site);
  return join(site, "_subjekti", `${DOCS_SHARD_KEY}.${manifest.dirs[DOCS_SHARD_KEY]}`, PUBLISHED_FILES[path]?.name ?? "");
}

/** Python's verdict on each page file: the first errors, [] when valid. */
function python(pages: readonly string[]): Promise<{ patterns: number; results: string[][] }> {
  return (async () => {
    const run = spawnSync(
      PYTHON as string,
      ["-c", SCRIPT, await published("/schema/page.json"), await published("/openapi.json"), ...pages],
      { encoding: "utf8" },
    );
    if (run.status !== 0) throw new Error(`python jsonschema failed: ${run.stderr}`);
    return JSON.parse(run.stdout);
  })();
}

describe.skipIf(PYTHON === null && !REQUIRE)("the published schemas in Python's jsonschema (Debian's python3-jsonschema)", () => {
  beforeAll(async () => {
    if (PYTHON === null) throw new Error("SUBJEKTI_REQUIRE_PYTHON=1 but no python3 with jsonschema (apt-get install python3-jsonschema)");
    root = await tempDir("subjekti-python-");
    site = join(root, "site");
    await build(SAMPLE, site, { limits: [1000], forms: ["plain", "api"], cacheDir: null });
  }, 120_000);
  afterAll(() => rm(root, { recursive: true, force: true }));

  it("every pre-rendered page of the sample is valid in Python as in ajv, and every pattern compiles in Python's re", async () => {
    const validator = new Ajv2020({ allErrors: true, strict: true });
    addFormats.default(validator);
    const validate = validator.compile(JSON.parse(await readFile(await published("/schema/page.json"), "utf8")));
    const files: string[] = [];
    for (const form of ["plain", "api"] as const) {
      for (const [i, text] of (await readPages(site, form, 1000)).entries()) {
        expect(validate(JSON.parse(text)), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
        const file = join(root, `${form}-${i}.json`);
        await writeFile(file, text);
        files.push(file);
      }
    }
    expect(files.length).toBe(2 * Math.ceil(5758 / 1000));
    const verdict = await python(files);
    expect(verdict.results).toEqual(files.map(() => []));
    // id's, the code's, the OIB's and razina's, in the page schema and the OpenAPI document.
    expect(verdict.patterns).toBeGreaterThanOrEqual(6);
  }, 60_000);

  it.each([
    ["an upper-case razina", { razina: "Lokalna" }, false],
    ["a razina with a digit", { razina: "lokalna2" }, false],
    ["a razina with a space", { razina: "lokalna razina" }, false],
    ["a croatian lowercase razina", { razina: "županijska" }, true],
    ["a cyrillic lowercase razina", { razina: "локална" }, true],
    ["oib as a number", { oib: 2735615212 }, false],
  ])(
    "a page holding a subject with %s: Python, ajv and zod agree",
    async (name, change, valid) => {
      const page = JSON.parse((await readPages(site, "plain", 1000))[0] ?? "");
      page.results[0] = { ...page.results[0], ...change };
      const file = join(root, `changed-${name.replace(/\W+/g, "-")}.json`);
      await writeFile(file, JSON.stringify(page));
      const [errors] = (await python([file])).results;
      expect(errors?.length === 0, JSON.stringify(errors)).toBe(valid);
      expect(subjectSchema.safeParse(page.results[0]).success).toBe(valid);
    },
    60_000,
  );
});
