/**
 * The published description of the API, generated from the one zod schema of a subject
 * (subject-schema.ts): JSON Schemas (2020-12) of a subject and of a page, and an OpenAPI 3.1
 * document of `/api/subjekti/`. Nothing here restates a field's rule: each comes from the schema
 * and its `meta` descriptions. What zod makes of the schemas (api-schemas.ts) is read from its
 * snapshot (api-schemas-json.ts, written by `npm run api-schemas`; a test fails when it is not
 * zod's output today): a build does not load zod (some 150 ms) for text that never changes.
 */
import { pageTags } from "../../core/cache-tags.ts";
import { ALLOWED_METHODS, PREFLIGHT_MAX_AGE } from "../../core/cors.ts";
import { DEFAULT_LIMIT } from "../../core/request/read-query.ts";
import { ORDER_FIELDS, RAZINA_CHOICES } from "../../core/search/read-filters.ts";
import { VERSION } from "../../core/version.ts";
import type { DatasetMetadata } from "./dataset-metadata.ts";
import { API_SCHEMAS_JSON } from "./api-schemas-json.ts";

/** The filters django-filter validates, in the FilterSet's order (the order of an error body's keys). */
export const VALIDATED_FILTERS = [
  "oib",
  "jedinstvena_oznaka",
  "razina",
  "institucija_grad",
  "datum_postanka",
  "datum_postanka__gte",
  "datum_postanka__lte",
] as const;
type JsonObject = Record<string, unknown>;

/** The schemas zod makes of the answers (api-schemas.ts), as the snapshot holds them. */
export interface ApiSchemas {
  /** The JSON Schema of one subject. */
  readonly subject: JsonObject;
  /** The JSON Schema of one page. */
  readonly page: JsonObject;
  /** The named schemas of the answers, as OpenAPI components. */
  readonly components: Record<string, JsonObject>;
}

/** The snapshot's schemas, parsed afresh for each caller (a caller may change what it is given). */
function apiSchemas(): ApiSchemas {
  return JSON.parse(API_SCHEMAS_JSON) as ApiSchemas;
}

/** The JSON Schema of one subject. */
export function subjectJsonSchema(): JsonObject {
  return apiSchemas().subject;
}

/** The JSON Schema of one page of `/api/subjekti/` (the subject inlined, so one file validates a page). */
export function pageJsonSchema(): JsonObject {
  return apiSchemas().page;
}

/** The facts of a build the description states. */
export interface DescribedSite {
  readonly maxLimit: number;
  readonly cacheControl: string;
}

/** The OpenAPI 3.1 document of `/api/subjekti/`. */
export function openApiDocument(metadata: DatasetMetadata, site: DescribedSite): JsonObject {
  return {
    openapi: "3.1.0",
    info: apiInfo(metadata),
    // No `servers`: the default ("/") is wherever this document was fetched from, so a deploy
    // preview's document describes the deploy preview.
    paths: { "/api/subjekti/": listPath(), "/api/subjekti/{id}/": subjectPath(), "/api/": rootPath(), ...feedPaths() },
    components: {
      schemas: { ...apiSchemas().components, ...feedSchemas() },
      parameters: queryParameters(site),
      headers: answerHeaders(site),
    },
  };
}

/** The document's `info`: the dataset's title, description, sources and licence, and how the API answers. */
function apiInfo(metadata: DatasetMetadata): JsonObject {
  const licence = metadata.licenses[0];
  const sources = metadata.sources.map((s) => `- ${s.path === undefined ? s.title : `[${s.title}](${s.path})`}`).join("\n");
  return {
    title: metadata.title,
    version: VERSION,
    description:
      `${metadata.description}\n\n` +
      (sources === "" ? "" : `Sources:\n${sources}\n\n`) +
      "Answers exactly as the original Django REST Framework service (`LimitOffsetPagination`). " +
      `Any origin may read it (CORS: \`Access-Control-Allow-Origin: *\`; preflights allowed for ${ALLOWED_METHODS} with any request header). ` +
      "Other methods answer 405; a path without its final slash answers 301 to it. " +
      "The routes are DRF's DefaultRouter's for a read-only view set: the API root `/api/`, the list `/api/subjekti/` " +
      "(searched by `search`, filtered by django-filter's `filterset_fields` and ordered by `ordering`, as the view's " +
      "`DjangoFilterBackend`, `SearchFilter` and `OrderingFilter` read them on PostgreSQL) and one subject by its id `/api/subjekti/{id}/` " +
      "(the same search and filters apply: a subject they leave out is a 404), " +
      "each also with a format suffix in place of its final slash (`/api/subjekti.json`, `/api/subjekti/5.api`, `/api/.json`). " +
      "Query strings need a host that routes (the edge function, the Worker, `subjekti serve`): a site of plain files answers none.",
    ...(licence === undefined ? {} : { license: { name: licence.title, url: licence.path } }),
  };
}

/** A JSON answer of the named component schema. */
const json = (ref: string, description: string) => ({
  description,
  content: { "application/json": { schema: { $ref: `#/components/schemas/${ref}` } } },
});
/** A string header, with an example when one is given. */
const header = (description: string, example?: string) => ({
  description,
  schema: { type: "string", ...(example === undefined ? {} : { examples: [example] }) },
});
/** The headers of a page's (or a subject's) answer. */
const PAGE_HEADERS = {
  ETag: { $ref: "#/components/headers/ETag" },
  "Cache-Control": { $ref: "#/components/headers/Cache-Control" },
  "Cache-Tag": { $ref: "#/components/headers/Cache-Tag" },
  "Access-Control-Allow-Origin": { $ref: "#/components/headers/Access-Control-Allow-Origin" },
  "Access-Control-Expose-Headers": { $ref: "#/components/headers/Access-Control-Expose-Headers" },
  Allow: { $ref: "#/components/headers/Allow" },
};
/** What every route refuses: an unknown `format`, an `Accept` without JSON. */
const REFUSALS = {
  "404": json("Error", 'An unknown `format` (anything but absent, empty, `api` or `json`, case-sensitive): `{"detail":"Not found."}`.'),
  "406": json("Error", 'An `Accept` header that admits no application/json: `{"detail":"Could not satisfy the request Accept header."}`.'),
};
/** The bodies of the 400 a filter's value answers, as DRF answers them (test/core/golden/drf-search-answers.json). */
export const FILTER_ERROR_EXAMPLES: Readonly<Record<string, { readonly query: string; readonly body: Record<string, readonly string[]> }>> =
  {
    nul: { query: "jedinstvena_oznaka=%00", body: { jedinstvena_oznaka: ["Null characters are not allowed."] } },
    razina: {
      query: "razina=regionalna",
      body: { razina: ["Select a valid choice. regionalna is not one of the available choices."] },
    },
    date: { query: "datum_postanka__gte=2020-02-30", body: { datum_postanka__gte: ["Enter a valid date."] } },
  };
const FILTER_REFUSAL = {
  "400": {
    description:
      "A filter's value is invalid (a NUL in a text filter, a `razina` not among its choices, a date no format reads): " +
      "django-filter's errors, every invalid filter in one body. `search`, `ordering` and the boolean filters never answer 400.",
    content: {
      "application/json": {
        schema: { $ref: "#/components/schemas/FilterErrors" },
        examples: Object.fromEntries(
          Object.entries(FILTER_ERROR_EXAMPLES).map(([name, { query, body }]) => [name, { summary: `?${query}`, value: body }]),
        ),
      },
    },
  },
};
/** The query parameters the list and the subject take (the subject no paging and no ordering). */
const refs = (names: readonly string[]) => names.map((name) => ({ $ref: `#/components/parameters/${name}` }));
const PAGE_PARAMETERS = refs(["limit", "offset"]);
// The filters in the FilterSet's order (filterset_fields), the search before them.
const FILTER_PARAMETERS = refs([
  "format",
  "search",
  ...VALIDATED_FILTERS.slice(0, 4),
  "status_subjekta",
  "odobreno",
  ...VALIDATED_FILTERS.slice(4),
]);
const ORDER_PARAMETERS = refs(["ordering"]);

/** OPTIONS on a route other than the list: DRF's view metadata of the view `name`. */
const viewOptions = (operationId: string, name: string) => ({
  options: {
    operationId,
    summary: `DRF's view metadata (name "${name}"), or a CORS preflight as on the list`,
    responses: { "200": json("ViewMetadata", "DRF's metadata of the view."), ...REFUSALS },
  },
});

/** `/api/subjekti/`: a page of the list (GET, HEAD), DRF's metadata or a CORS preflight (OPTIONS). */
function listPath(): JsonObject {
  return {
    summary: "The list of subjects, a page at a time",
    parameters: [...PAGE_PARAMETERS, ...FILTER_PARAMETERS, ...ORDER_PARAMETERS],
    get: {
      operationId: "listSubjects",
      summary: "A page of subjects",
      description:
        "Every query parameter other than limit and offset is kept in the `next` and `previous` links. " +
        "The search and the filters apply before the paging (`count` is the number of matches, exact at any offset), " +
        "then the order. " +
        "`If-None-Match` with the page's ETag answers 304.",
      responses: {
        "200": { ...json("Page", "The page."), headers: PAGE_HEADERS },
        "304": {
          description: "Not modified: `If-None-Match` named this page's ETag.",
          headers: { ETag: { $ref: "#/components/headers/ETag" } },
        },
        ...FILTER_REFUSAL,
        ...REFUSALS,
      },
    },
    head: {
      operationId: "headSubjects",
      summary: "The headers of a page, without its body",
      responses: {
        "200": { description: "As GET, without a body (Content-Length is the GET body's).", headers: PAGE_HEADERS },
        "304": { description: "Not modified." },
        ...REFUSALS,
      },
    },
    options: {
      operationId: "describeSubjects",
      summary: "DRF's view metadata, or a CORS preflight",
      description:
        "Without `Origin` and `Access-Control-Request-Method`: DRF's metadata. With both (a browser's preflight): 204 allowing " +
        `${ALLOWED_METHODS} and every requested header, for ${PREFLIGHT_MAX_AGE} seconds.`,
      responses: {
        "200": json("ViewMetadata", "DRF's metadata of the view."),
        "204": {
          description: "A CORS preflight's answer.",
          headers: {
            "Access-Control-Allow-Origin": { $ref: "#/components/headers/Access-Control-Allow-Origin" },
            "Access-Control-Allow-Methods": header("The methods allowed.", ALLOWED_METHODS),
            "Access-Control-Allow-Headers": header("The headers the preflight asked for, lower-cased."),
            "Access-Control-Max-Age": header("How long a browser may keep this answer, in seconds.", PREFLIGHT_MAX_AGE),
          },
        },
        ...REFUSALS,
      },
    },
  };
}

/** `/api/subjekti/{id}/`: one subject by its id. */
function subjectPath(): JsonObject {
  return {
    summary: "One subject by its id",
    parameters: [
      {
        name: "id",
        in: "path",
        required: true,
        description: "The subject's id, read as Python's int() reads it (`05` and ` 5` are 5). Not a number, or no such subject: 404.",
        schema: { type: "integer", minimum: 1 },
      },
      ...FILTER_PARAMETERS,
    ],
    get: {
      operationId: "getSubject",
      summary: "The subject: the same object, in the same bytes, as in a page",
      description:
        "The search and the filters apply here too, as DRF's `get_object` filters the queryset first: a subject they leave out " +
        "(`/api/subjekti/51/?search=zzz`, an OIB or a code other than its own) answers 404; an invalid filter the same 400 as the list.",
      responses: {
        "200": { ...json("Subject", "The subject."), headers: PAGE_HEADERS },
        "304": { description: "Not modified." },
        ...FILTER_REFUSAL,
        "404": json(
          "Error",
          'No such subject, a subject the search or a filter leaves out, or an unknown `format`: `{"detail":"Not found."}`.',
        ),
        "406": REFUSALS["406"],
      },
    },
    head: {
      operationId: "headSubject",
      summary: "The headers of the subject's answer, without its body",
      responses: { "200": { description: "As GET, without a body.", headers: PAGE_HEADERS }, "404": REFUSALS["404"] },
    },
    ...viewOptions("describeSubject", "Subjekt Instance"),
  };
}

/** `/api/`: DefaultRouter's root. */
function rootPath(): JsonObject {
  return {
    summary: "The API root",
    parameters: [{ $ref: "#/components/parameters/format" }],
    get: {
      operationId: "apiRoot",
      summary: "The link to the list",
      responses: { "200": json("ApiRoot", "DefaultRouter's root: each list by name."), ...REFUSALS },
    },
    head: {
      operationId: "headApiRoot",
      summary: "The root's headers, without its body",
      responses: { "200": { description: "As GET, without a body." }, ...REFUSALS },
    },
    ...viewOptions("describeApiRoot", "Api Root"),
  };
}

/** The query parameters: the paging (as DRF reads it), the search, the filters, the ordering and `format`. */
function queryParameters(site: DescribedSite): JsonObject {
  return {
    limit: {
      name: "limit",
      in: "query",
      description:
        `Subjects per page. Read as Python's int() reads a string (surrounding spaces, a sign, leading zeros and _ between digits accepted). ` +
        `Missing, not an integer, 0 or negative: ${DEFAULT_LIMIT}. Above ${site.maxLimit}: ${site.maxLimit}. Never an error.`,
      schema: { type: "integer", minimum: 1, maximum: site.maxLimit, default: DEFAULT_LIMIT },
    },
    offset: {
      name: "offset",
      in: "query",
      description:
        "Subjects skipped from the start of the list (ascending id). Missing, not an integer or negative: 0. Past the end: an empty page. Never an error.",
      schema: { type: "integer", minimum: 0, default: 0 },
    },
    search: {
      name: "search",
      in: "query",
      description:
        "DRF's SearchFilter over the name and the town (`naziv_subjekta__unaccent`, `institucija_grad__unaccent`): the last value, NULs removed, " +
        "commas as spaces, split at whitespace; every term must be found in the name or the town, as a substring after PostgreSQL's `unaccent` " +
        "and in any case (`dakovo` finds Đakovo, `lado` finds Mladost; `%`, `_` and `\\` are literal). Empty: no search. Never an error.",
      schema: { type: "string" },
      examples: { town: { value: "dakovo" }, terms: { value: "vrtic osijek" } },
    },
    ordering: {
      name: "ordering",
      in: "query",
      description:
        "DRF's OrderingFilter: fields separated by commas, `-` for descending; names and towns in Croatian order (c < č < ć < d < dž < đ), " +
        "codes as text, dates by date. Unknown fields are dropped (none left: by id); `id` ascending is appended unless `id` or `-id` is asked, " +
        "so equal values keep one order and paging never repeats or skips. Never an error.",
      style: "form",
      explode: false,
      schema: { type: "array", items: { type: "string", enum: ORDERINGS } },
      examples: { name: { value: ["naziv_subjekta"] }, newest: { value: ["-datum_postanka", "naziv_subjekta"] } },
    },
    oib: textFilter("oib", "Only the subjects with exactly this OIB", "02601815905"),
    jedinstvena_oznaka: textFilter(
      "jedinstvena_oznaka",
      "Only the subject with exactly this code, zeros included (`0002`, not `2`)",
      "0002",
    ),
    razina: {
      name: "razina",
      in: "query",
      description:
        "Only the subjects of this level (django-filter's ChoiceFilter of the model's choices, not stripped; empty: no filter). " +
        'Any other value answers 400 `{"razina":["Select a valid choice. X is not one of the available choices."]}`.',
      schema: { type: "string", enum: ["", ...RAZINA_CHOICES] },
    },
    institucija_grad: textFilter("institucija_grad", "Only the subjects in exactly this town, case and diacritics as written", "Zagreb"),
    status_subjekta: booleanFilter("status_subjekta", "active"),
    odobreno: booleanFilter("odobreno", "approved"),
    datum_postanka: dateFilter("datum_postanka", "founded on this date"),
    datum_postanka__gte: dateFilter("datum_postanka__gte", "founded on this date or later"),
    datum_postanka__lte: dateFilter("datum_postanka__lte", "founded on this date or earlier"),
    format: {
      name: "format",
      in: "query",
      description: "`api` or `json` (or empty): JSON, and the links keep it. Anything else (case-sensitive) answers 404.",
      schema: { type: "string", enum: ["", "api", "json"] },
    },
  };
}

/** `ordering`'s values: `id` and each order field, ascending and descending. */
const ORDERINGS = ["id", ...ORDER_FIELDS].flatMap((field) => [field, `-${field}`]);

/** An exact CharFilter as django-filter reads it: stripped, empty no filter, a NUL a 400. */
function textFilter(name: string, what: string, example: string): JsonObject {
  return {
    name,
    in: "query",
    description:
      `${what} (django-filter's exact filter; surrounding spaces stripped; empty: no filter). ` +
      `A NUL character answers 400 \`{"${name}":["Null characters are not allowed."]}\`.`,
    schema: { type: "string" },
    examples: { [name]: { value: example } },
  };
}

/** A BooleanFilter as django-filter's BooleanWidget reads it: these spellings in any case, anything else no filter. */
function booleanFilter(name: string, what: string): JsonObject {
  return {
    name,
    in: "query",
    description: `Only the subjects ${what} (\`true\`, \`1\`) or not (\`false\`, \`0\`), in any case. Any other value is no filter, never an error.`,
    schema: { type: "string", pattern: "^(?:[Tt][Rr][Uu][Ee]|[Ff][Aa][Ll][Ss][Ee]|1|0)$" },
    examples: { yes: { value: "true" }, no: { value: "0" } },
  };
}

/** A DateFilter as Django's DateField reads it. */
function dateFilter(name: string, what: string): JsonObject {
  return {
    name,
    in: "query",
    description:
      `Only the subjects ${what}: \`YYYY-MM-DD\`, or any of Django's DATE_INPUT_FORMATS (\`01/05/2020\`, \`1/5/20\`, \`Jan 5 2020\`, \`5 January, 2020\`); ` +
      'surrounding spaces stripped; empty: no filter. A value no format reads (or no such day) answers 400 `{"' +
      name +
      '":["Enter a valid date."]}`.',
    schema: { type: "string", format: "date" },
    examples: { day: { value: "2020-01-05" } },
  };
}

/** The headers of an answer: validation, caching, cache tags, CORS and the methods. */
function answerHeaders(site: DescribedSite): JsonObject {
  return {
    ETag: header("A strong entity tag of this page; send it back in If-None-Match for a 304."),
    "Cache-Control": header("How long caches may keep the answer.", site.cacheControl),
    "Cache-Tag": header(
      "The cache tags of the answer (also sent as Netlify-Cache-Tag): the site's, and one per records chunk the page shows, so a purge by tag reaches exactly the answers a rebuild changed.",
      pageTags(1000, 0, 20).join(","),
    ),
    "Access-Control-Allow-Origin": header("Any origin may read the answer.", "*"),
    "Access-Control-Expose-Headers": header("Headers a cross-origin page may read.", "ETag, Allow"),
    Allow: header("The methods the resource answers.", ALLOWED_METHODS),
  };
}

/** The change feed's files (src/feed/feed-format.ts): static files beside the API, for mirrors. */
function feedPaths(): Record<string, unknown> {
  const immutable = "Immutable: cached for a year.";
  return {
    "/changes/state.json": {
      get: {
        operationId: "feedState",
        summary: "The change feed's root: the current sequence and version, the snapshot, the history kept",
        description:
          "The dataset's `version` is the SHA-256 of the snapshot (the whole list as NDJSON: each record's bytes as in a page, one a line, in id order); " +
          "`sequence` goes up by one with every build whose data changed. A mirror at sequence s applies the diffs s+1 … `sequence` " +
          "when s + 1 ≥ `oldest`, else downloads the snapshot. Cached for 60 seconds. `subjekti sync <origin> <file>` is the reference client.",
        responses: {
          "200": { description: "The state.", content: { "application/json": { schema: { $ref: "#/components/schemas/FeedState" } } } },
        },
      },
    },
    "/changes/{sequence}.json": {
      get: {
        operationId: "feedDiff",
        summary: "The changes that made one sequence, keyed by id",
        description: `Applies to \`from_version\` and gives \`to_version\` (verify by hashing the result). One change a line, in id order. ${immutable}`,
        parameters: [{ name: "sequence", in: "path", required: true, schema: { type: "integer", minimum: 2 } }],
        responses: {
          "200": { description: "The diff.", content: { "application/json": { schema: { $ref: "#/components/schemas/FeedDiff" } } } },
          "404": { description: "Not kept (older than the state's `oldest`), or never made." },
        },
      },
    },
    "/changes/snapshots/{version}.ndjson": {
      get: {
        operationId: "feedSnapshot",
        summary: "The whole list at a version, as NDJSON",
        description: `Its SHA-256 is its name. The current one and the previous one are kept. ${immutable}`,
        parameters: [{ name: "version", in: "path", required: true, schema: { type: "string", pattern: "^[0-9a-f]{64}$" } }],
        responses: {
          "200": { description: "The list, a record a line.", content: { "application/x-ndjson": { schema: { type: "string" } } } },
        },
      },
    },
    "/changes/feed.atom": {
      get: {
        operationId: "feedAtom",
        summary: "The same sequences as an Atom feed, for feed readers",
        responses: { "200": { description: "Atom.", content: { "application/atom+xml": { schema: { type: "string" } } } } },
      },
    },
  };
}

function feedSchemas(): Record<string, unknown> {
  const hash = { type: "string", pattern: "^[0-9a-f]{64}$" };
  const entry = {
    type: "object",
    required: ["sequence", "published", "from_version", "to_version", "upserts", "deletes"],
    properties: {
      sequence: { type: "integer" },
      published: { type: "string", format: "date-time" },
      from_version: { oneOf: [hash, { type: "null" }] },
      to_version: hash,
      upserts: { type: "integer" },
      deletes: { type: "integer" },
    },
  };
  return {
    FeedState: {
      type: "object",
      required: ["format", "sequence", "version", "published", "count", "oldest", "snapshot", "history"],
      properties: {
        format: { type: "integer", enum: [1] },
        sequence: { type: "integer", minimum: 1 },
        version: hash,
        published: {
          type: "string",
          format: "date-time",
          description:
            "When the data of this version was made: SOURCE_DATE_EPOCH or the newest source's modification time, never the build's clock.",
        },
        count: { type: "integer", minimum: 0 },
        oldest: { type: "integer", description: "The oldest sequence whose diff is kept." },
        snapshot: {
          type: "object",
          required: ["url", "sha256", "bytes"],
          properties: { url: { type: "string", description: "Relative to this file." }, sha256: hash, bytes: { type: "integer" } },
        },
        history: { type: "array", items: entry },
      },
    },
    FeedDiff: {
      type: "object",
      required: ["sequence", "from_version", "to_version", "published", "changes"],
      properties: {
        sequence: { type: "integer" },
        from_version: hash,
        to_version: hash,
        published: { type: "string", format: "date-time" },
        changes: {
          type: "array",
          items: {
            type: "object",
            required: ["op", "id"],
            properties: {
              op: { type: "string", enum: ["upsert", "delete"] },
              id: { type: "integer" },
              record: { $ref: "#/components/schemas/Subject" },
            },
          },
        },
      },
    },
  };
}
