/**
 * The published description, as a consumer checks it: the OpenAPI document against a real
 * OpenAPI 3.1 validator, every page of the sample against the page schema with a real JSON Schema
 * (2020-12) validator, and the schemas agreeing with the zod schema the build validates with.
 */
import { readFile, rm } from "node:fs/promises";
import { join } from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiSchemas, subjectSchema } from "../../../src/site/docs/api-schemas.ts";
import { API_SCHEMAS_JSON } from "../../../src/site/docs/api-schemas-json.ts";
import { FILTER_ERROR_EXAMPLES, VALIDATED_FILTERS } from "../../../src/site/docs/describe-api.ts";
import { ORDER_FIELDS, readFilters, readOrdering } from "../../../src/core/search/read-filters.ts";
import { DRF_SEARCH_GOLDEN } from "../../hosts/request-cases.ts";
import { answerRequest } from "../../../src/core/answer-request.ts";
import { nodeSite } from "../../../src/common/node-site.ts";
import { readSiteManifest } from "../../../src/common/read-site-manifest.ts";
import { DOCS_SHARD_KEY, PUBLISHED_FILES } from "../../../src/core/published-files.ts";
import { tempDir } from "../../file-trees.ts";
import { build, readManifest, readPages } from "../built-site.ts";

const SAMPLE = join(import.meta.dirname, "../../../data");
let root: string;
let site: string;

/** A published file of the built site, by its public path. */
async function published(path: string): Promise<string> {
  const manifest = await readManifest(site);
  return readFile(join(site, "_subjekti", `${DOCS_SHARD_KEY}.${manifest.dirs[DOCS_SHARD_KEY]}`, PUBLISHED_FILES[path]?.name ?? ""), "utf8");
}

function ajv() {
  // Strict: an unknown keyword or format in the published schemas fails the test instead of being ignored.
  const validator = new Ajv2020({ allErrors: true, strict: true });
  addFormats.default(validator);
  return validator;
}

beforeAll(async () => {
  root = await tempDir("subjekti-describe-");
  site = join(root, "site");
  await build(SAMPLE, site, { limits: [20, 1000], forms: ["plain", "api"], cacheDir: null });
}, 120_000);
afterAll(() => rm(root, { recursive: true, force: true }));

describe("the OpenAPI document", () => {
  it("is valid OpenAPI 3.1 (@seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator();
    const result = await validator.validate(JSON.parse(await published("/openapi.json")));
    expect(result.errors ?? []).toEqual([]);
    expect([result.valid, validator.version]).toEqual([true, "3.1"]);
  });

  it("takes its info from datapackage.json: title, licence, source", async () => {
    const document = JSON.parse(await published("/openapi.json"));
    expect(document.info.title).toBe("Registry of Subjects (sample)");
    expect(document.info.license).toEqual({
      name: "Otvorena dozvola (Croatian Open Licence)",
      url: "https://data.gov.hr/otvorena-dozvola",
    });
    expect(document.info.description).toContain("https://tjv.pristupinfo.hr/");
  });

  it("describes limit, offset, format and the two filters, the page, and the error bodies", async () => {
    const document = JSON.parse(await published("/openapi.json"));
    const operation = document.paths["/api/subjekti/"];
    expect(operation.parameters.map((p: { $ref: string }) => p.$ref.split("/").pop())).toEqual([
      "limit",
      "offset",
      "format",
      "search",
      "oib",
      "jedinstvena_oznaka",
      "razina",
      "institucija_grad",
      "status_subjekta",
      "odobreno",
      "datum_postanka",
      "datum_postanka__gte",
      "datum_postanka__lte",
      "ordering",
    ]);
    expect(document.components.parameters.limit.schema).toEqual({ type: "integer", minimum: 1, maximum: 1000, default: 20 });
    expect(Object.keys(operation.get.responses)).toEqual(["200", "304", "400", "404", "406"]);
    expect(operation.get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Page" });
    expect(document.components.schemas.Page.properties.results.items).toEqual({ $ref: "#/components/schemas/Subject" });
    expect(document.components.schemas.Error.required).toEqual(["detail"]);
  });

  it("describes the router's other routes: one subject by its id and the API root, with their answers' schemas", async () => {
    const document = JSON.parse(await published("/openapi.json"));
    const subject = document.paths["/api/subjekti/{id}/"];
    expect(Object.keys(subject).filter((k) => ["get", "head", "options"].includes(k))).toEqual(["get", "head", "options"]);
    expect(subject.get.responses["200"].content["application/json"].schema).toEqual({ $ref: "#/components/schemas/Subject" });
    expect(Object.keys(subject.get.responses)).toEqual(["200", "304", "400", "404", "406"]);
    expect(document.paths["/api/"].get.responses["200"].content["application/json"].schema).toEqual({
      $ref: "#/components/schemas/ApiRoot",
    });
    const validator = ajv();
    for (const [name, schema] of Object.entries(document.components.schemas))
      validator.addSchema(schema as object, `#/components/schemas/${name}`);
    expect(validator.validate({ $ref: "#/components/schemas/ApiRoot" }, { subjekti: "https://x.org/api/subjekti/" })).toBe(true);
    expect(validator.validate({ $ref: "#/components/schemas/FilterErrors" }, { oib: ["Null characters are not allowed."] })).toBe(true);
  });

  it("describes every query parameter the core's filters read, and only those (besides limit, offset and format)", async () => {
    const document = JSON.parse(await published("/openapi.json"));
    // The keys readFilters asks for, by construction: a new filter in the core without its parameter here fails.
    const read = new Set<string>();
    readFilters((key) => {
      read.add(key);
      return undefined;
    });
    expect(new Set(Object.keys(document.components.parameters))).toEqual(new Set(["limit", "offset", "format", ...read]));
    const detail = document.paths["/api/subjekti/{id}/"].parameters.map((p: { $ref?: string; name?: string }) =>
      (p.$ref ?? p.name ?? "").split("/").pop(),
    );
    expect(new Set(detail)).toEqual(new Set(["id", "format", ...[...read].filter((key) => key !== "ordering")]));
  });

  it("each parameter's schema admits exactly what the core reads as a filter: razina's choices, ordering's fields, the boolean spellings", async () => {
    const { parameters } = JSON.parse(await published("/openapi.json")).components;
    const validator = ajv();
    const admits = (name: string, value: unknown): boolean => validator.validate(parameters[name].schema, value);
    const filters = (key: string, value: string) => readFilters((k) => (k === key ? value : undefined));
    for (const value of ["", "lokalna", "nacionalna", "Lokalna", "regionalna", " lokalna"])
      expect(admits("razina", value), value).toBe(!("errors" in filters("razina", value)));
    for (const value of ["true", "TRUE", "False", "1", "0", "da", "yes", "", "2"]) {
      const read = filters("odobreno", value);
      expect(admits("odobreno", value), value).toBe(!("errors" in read) && read.approved !== undefined);
      expect(admits("status_subjekta", value), value).toBe(admits("odobreno", value));
    }
    const orderings: string[] = parameters.ordering.schema.items.enum;
    expect(orderings).toHaveLength(2 * (ORDER_FIELDS.length + 1));
    for (const field of ORDER_FIELDS) {
      expect(orderings).toEqual(expect.arrayContaining([field, `-${field}`]));
      expect(readOrdering(field)?.keys).toEqual([{ field, descending: false }]);
      expect(readOrdering(`-${field}`)?.keys).toEqual([{ field, descending: true }]);
    }
    expect(parameters.ordering).toMatchObject({ style: "form", explode: false });
    for (const name of ["datum_postanka", "datum_postanka__gte", "datum_postanka__lte"]) {
      expect(parameters[name].schema).toEqual({ type: "string", format: "date" });
      expect(parameters[name].description).toContain(`{"${name}":["Enter a valid date."]}`);
    }
  });

  it("its 400 examples are DRF's bodies (the search goldens), and every 400 body DRF gave validates against FilterErrors", async () => {
    const document = JSON.parse(await published("/openapi.json"));
    const validator = ajv();
    for (const [name, schema] of Object.entries(document.components.schemas))
      validator.addSchema(schema as object, `#/components/schemas/${name}`);
    const answers = [...DRF_SEARCH_GOLDEN.fixture, ...DRF_SEARCH_GOLDEN.sample];
    for (const path of ["/api/subjekti/", "/api/subjekti/{id}/"]) {
      const refused = document.paths[path].get.responses["400"].content["application/json"];
      expect(refused.schema).toEqual({ $ref: "#/components/schemas/FilterErrors" });
      for (const [name, example] of Object.entries(refused.examples as Record<string, { summary: string; value: unknown }>)) {
        const query = FILTER_ERROR_EXAMPLES[name]?.query ?? "";
        expect(example.summary).toBe(`?${query}`);
        const golden = answers.find((a) => a.target === `/api/subjekti/?${query}`);
        expect(golden?.status, query).toBe(400);
        expect(example.value, query).toEqual(JSON.parse(golden?.body ?? ""));
      }
    }
    const keys = new Set<string>();
    let bodies = 0;
    for (const answer of answers.filter((a) => a.status === 400 && a.method === "GET" && a.target.startsWith("/api/subjekti/"))) {
      const body = JSON.parse(answer.body) as Record<string, unknown>;
      expect(validator.validate({ $ref: "#/components/schemas/FilterErrors" }, body), answer.target).toBe(true);
      // The keys in the FilterSet's order, as the document lists them.
      const order = Object.keys(body).map((key) => (VALIDATED_FILTERS as readonly string[]).indexOf(key));
      expect(order, answer.target).toEqual([...order].sort((a, b) => a - b));
      for (const key of Object.keys(body)) keys.add(key);
      bodies += 1;
    }
    expect(bodies).toBeGreaterThan(30);
    expect(keys).toEqual(new Set(VALIDATED_FILTERS));
    expect(validator.validate({ $ref: "#/components/schemas/FilterErrors" }, { search: ["x"] })).toBe(false);
    const detail = document.paths["/api/subjekti/{id}/"].get.responses;
    expect(detail["404"].description).toContain("a subject the search or a filter leaves out");
    const zzz = answers.find((a) => a.target === "/api/subjekti/51/?search=zzz");
    expect([zzz?.status, zzz?.body]).toEqual([404, '{"detail":"Not found."}']);
  });

  it("its Page component validates a page as the standalone page schema does", async () => {
    const document = JSON.parse(await published("/openapi.json"));
    const validator = ajv();
    for (const [name, schema] of Object.entries(document.components.schemas))
      validator.addSchema(schema as object, `#/components/schemas/${name}`);
    const [first] = await readPages(site, "plain", 20);
    const validate = validator.compile({ $ref: "#/components/schemas/Page" });
    expect(validate(JSON.parse(first ?? "")), JSON.stringify(validate.errors)).toBe(true);
  });
});

describe("the JSON Schemas", () => {
  it("every pre-rendered page of the sample (both forms, limits 20 and 1000) is valid against /schema/page.json (ajv, 2020-12)", async () => {
    const validate = ajv().compile(JSON.parse(await published("/schema/page.json")));
    let pages = 0;
    for (const [form, limit] of [
      ["plain", 20],
      ["api", 20],
      ["plain", 1000],
      ["api", 1000],
    ] as const) {
      for (const text of await readPages(site, form, limit)) {
        const valid = validate(JSON.parse(text));
        expect(valid, JSON.stringify(validate.errors?.slice(0, 3))).toBe(true);
        pages += 1;
      }
    }
    expect(pages).toBe(2 * (Math.ceil(5758 / 20) + Math.ceil(5758 / 1000)));
  });

  it.each([
    ["oib as a number", { oib: 2735615212 }],
    ["oib of 10 digits", { oib: "2735615212" }],
    ["a code of 3 digits", { jedinstvena_oznaka: "001" }],
    ["status as the string true", { status_subjekta: "true" }],
    ["an upper-case razina", { razina: "Lokalna" }],
    ["a date that is no date", { datum_postanka: "1.2.2020" }],
    ["an unknown field", { naziv_subjekt: "x" }],
    ["id 0", { id: 0 }],
  ])("a page holding a subject with %s is refused by the page schema, as zod refuses the subject", async (_name, change) => {
    const validate = ajv().compile(JSON.parse(await published("/schema/page.json")));
    const page = JSON.parse((await readPages(site, "plain", 20))[0] ?? "");
    page.results[0] = { ...page.results[0], ...change };
    expect(validate(page)).toBe(false);
    expect(subjectSchema.safeParse(page.results[0]).success).toBe(false);
  });

  it("are zod's output today: the snapshot the build publishes from is what api-schemas.ts makes (else run `npm run api-schemas`)", () => {
    expect(JSON.parse(API_SCHEMAS_JSON)).toStrictEqual(apiSchemas());
    expect(API_SCHEMAS_JSON).toBe(JSON.stringify(apiSchemas()));
  });

  it("/schema/subject.json gives every field of the zod schema, in its order, each with its rule described", async () => {
    const schema = JSON.parse(await published("/schema/subject.json"));
    expect(schema.$schema).toBe("https://json-schema.org/draft/2020-12/schema");
    expect(Object.keys(schema.properties)).toEqual(Object.keys(subjectSchema.shape));
    expect(schema.required).toEqual(Object.keys(subjectSchema.shape));
    expect(schema.additionalProperties).toBe(false);
    for (const [name, property] of Object.entries(schema.properties as Record<string, { description?: string }>)) {
      expect(property.description, name).toMatch(/\w/);
    }
    expect(schema.properties.oib.description).toContain("ISO 7064 MOD 11,10");
    expect(schema.properties.razina.description).toContain("lokalna and nacionalna");
  });
});

describe("the landing page", () => {
  it("shows the count, every field, example links, the description files, the source and the licence; no script but JSON-LD", async () => {
    const html = await published("/");
    expect(html).toContain("5,758 subjects");
    for (const field of Object.keys(subjectSchema.shape)) expect(html).toContain(`<code>${field}</code>`);
    expect(html).toContain('<a href="/api/subjekti/?limit=5&amp;offset=10">');
    // The router's routes, each with its key for the reader to put in.
    for (const route of [
      "/api/",
      "/api/subjekti/&lt;id&gt;/",
      "/api/subjekti/?oib=&lt;oib&gt;",
      "/api/subjekti/?jedinstvena_oznaka=&lt;oznaka&gt;",
    ])
      expect(html).toContain(`<code>${route}</code>`);
    for (const path of ["/openapi.json", "/schema/subject.json", "/schema/page.json"]) expect(html).toContain(`<a href="${path}">`);
    expect(html).toContain('<a href="https://data.gov.hr/otvorena-dozvola">Otvorena dozvola (Croatian Open Licence)</a>');
    expect(html).toContain("https://tjv.pristupinfo.hr/");
    // No inline code: the search script is a file (the Content-Security-Policy allows no other), the one block is the schema.org Dataset, JSON-LD data.
    expect(html.match(/<script[^>]*>/gi)).toEqual(['<script src="/pretraga.js" defer>', '<script type="application/ld+json">']);
  });

  it("its example links of the API all answer 200 on a routed host (the core over the built sample), each search, filter and ordering finding subjects", async () => {
    const html = await published("/");
    const manifest = await readSiteManifest(site);
    const host = nodeSite(site, { current: () => Promise.resolve({ manifest }), refresh: () => Promise.resolve() });
    const hrefs = [...html.matchAll(/<a href="(\/api\/[^"]*)">/g)].map((match) => (match[1] ?? "").replaceAll("&amp;", "&"));
    const queries = ["search=", "razina=", "datum_postanka__gte=", "ordering="];
    for (const parameter of queries)
      expect(
        hrefs.some((href) => href.includes(parameter)),
        parameter,
      ).toBe(true);
    for (const href of hrefs) {
      const answer = await answerRequest({ method: "GET", target: href, scheme: "http", host: "localhost", headers: new Headers() }, host);
      expect(answer.kind === "send" ? answer.status : answer.kind, href).toBe(200);
      if (answer.kind !== "send" || !queries.some((parameter) => href.includes(parameter))) continue;
      const body = answer.body instanceof Uint8Array ? new TextDecoder().decode(answer.body) : "";
      expect((JSON.parse(body) as { count: number }).count, href).toBeGreaterThan(0);
    }
    // What a site of plain files cannot answer, and where people search.
    expect(html).toContain("cannot read a query string");
    expect(html).toContain("<code>/trazi/</code>");
  });
});
