/**
 * What `subjekti check` asks a deployment, from the built site's manifest: the public URL of every
 * pre-rendered page (exactly as our `next`/`previous` links write it), a seeded sample of pages no
 * file holds, and one request for each other answer of the contract (HEAD, 304, preflight,
 * OPTIONS, 301, 404, 405, 406, the published description files), and the router's other routes
 * (the API root, a subject by its id, found and missing, the filters), the search, the filters and
 * the ordering (docs/search.md), and the pages for people (an institution's page, the results page).
 * Only requests: what each should answer is computed by the core from the built site
 * (check-site.ts), never written here.
 */
import { COLLECTION_PATH, encodeLinkQuery } from "../core/build-links.ts";
import type { Form } from "../core/layout.ts";
import type { Manifest } from "../core/manifest.ts";
import { PUBLISHED_PATHS } from "../core/published-files.ts";
import { SUBJECT_PAGES_PREFIX } from "../core/html/html-routes.ts";
import { RESULTS_PATH } from "../core/html/search-form.ts";
import type { QueryParam } from "../core/request/read-query.ts";
import { mulberry32, type Random } from "../common/seeded-random.ts";
import type { CheckKind } from "../common/messages/en.ts";

/** What a probe checks; the summary and `--json` name it (each kind said in every language: the catalogues' list). */
export type ProbeKind = CheckKind;

/** One request to send, in origin-form. */
export interface Probe {
  readonly kind: ProbeKind;
  readonly method: string;
  /** Path and query, as sent (ASCII). */
  readonly target: string;
  readonly headers: Readonly<Record<string, string>>;
  /** Send the ETag of the GET answer expected for this target as `If-None-Match` (known only once computed). */
  readonly ifNoneMatchExpected?: boolean;
}

export interface PlanOptions {
  /** Check this many pre-rendered pages (a seeded sample) instead of all; undefined: all. */
  readonly sample?: number | undefined;
  /** Seeds the sample and the derived pages' offsets and limits. */
  readonly seed: number;
  /** Ask the pre-rendered pages with their ETag in If-None-Match: a 304 each, no bodies sent. */
  readonly etags?: boolean | undefined;
  /** One subject of the list, looked up by each of its keys and searched by its name and town (none: an empty list). */
  readonly subject?: PlannedSubject | undefined;
}

/** What the plan reads of one subject: its keys, its name and its town. */
export interface PlannedSubject {
  readonly id: number;
  readonly code: string;
  readonly oib: string;
  readonly name: string;
  readonly town: string;
}

/** Derived pages at random limits and offsets, beside the fixed ones below. */
const RANDOM_DERIVED = 12;

/** The `format` parameters a form of page carries into its links. */
function formParams(form: Form): QueryParam[] {
  return form === "plain" ? [] : [["format", form]];
}

/** The collection URL with this query (none: the bare collection). */
function collection(query: string): string {
  return query === "" ? COLLECTION_PATH : `${COLLECTION_PATH}?${query}`;
}

/** Every request `subjekti check` sends for this site, in a stable order. */
export function planProbes(manifest: Manifest, options: PlanOptions): Probe[] {
  const random = mulberry32(options.seed);
  const sampled = samplePages(preRenderedPages(manifest), options.sample, random);
  const pages = options.etags === true ? sampled.map((probe): Probe => ({ ...probe, ifNoneMatchExpected: true })) : sampled;
  const first = pages[0]?.target ?? collection("");
  return [
    ...pages,
    ...derivedPages(manifest, random),
    { kind: "head", method: "HEAD", target: first, headers: {} },
    { kind: "conditional", method: "GET", target: first, headers: {}, ifNoneMatchExpected: true },
    {
      kind: "preflight",
      method: "OPTIONS",
      target: first,
      headers: {
        Origin: "https://example.org",
        "Access-Control-Request-Method": "GET",
        "Access-Control-Request-Headers": "If-None-Match, X-Requested-With",
      },
    },
    { kind: "options", method: "OPTIONS", target: COLLECTION_PATH, headers: {} },
    { kind: "redirect", method: "GET", target: `${COLLECTION_PATH.slice(0, -1)}?limit=5`, headers: {} },
    { kind: "not-found", method: "GET", target: collection("format=xml"), headers: {} },
    { kind: "not-allowed", method: "POST", target: COLLECTION_PATH, headers: { "Content-Length": "0" } },
    { kind: "not-acceptable", method: "GET", target: COLLECTION_PATH, headers: { Accept: "text/html" } },
    ...PUBLISHED_PATHS.map((path): Probe => ({ kind: "published", method: "GET", target: path, headers: {} })),
    ...lookups(options.subject),
    ...searches(options.subject),
    ...peoplePages(options.subject),
  ];
}

/** A query value as a link writes it (ASCII, so any name can be sent). */
const value = (text: string): string => encodeURIComponent(text);

/** The first word of a subject's name (the search form's likely query), lower-cased and without its diacritics' marks: unaccent's and the case's work is checked too. */
function searchWord(subject: PlannedSubject): string {
  const word = subject.name.split(/\s+/).find((w) => w.length >= 3) ?? subject.name;
  return word.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();
}

/**
 * The search, the filters and the ordering: each of a different kind of query (one or two
 * letters, a word of the first subject's name, a filter of a choice, a town, a date range, an
 * order by name descending at an offset, several fields), the 400s of an invalid choice and date,
 * and the detail route under a search and a filter. A host that ignores query strings answers them
 * with the whole list (check-site.ts says so).
 */
function searches(subject: PlannedSubject | undefined): Probe[] {
  const get = (target: string): Probe => ({ kind: "search", method: "GET", target, headers: {} });
  const probes = [
    get(collection("search=a&limit=5")),
    get(collection("razina=lokalna&limit=3&offset=1")),
    get(collection("datum_postanka__gte=2000-01-01&datum_postanka__lte=2020-12-31&odobreno=true")),
    get(collection("ordering=-naziv_subjekta&limit=4&offset=2")),
    get(collection("ordering=institucija_grad,-datum_postanka&limit=3")),
    get(collection("razina=regionalna")),
    get(collection("datum_postanka__gte=2020-02-30&razina=x")),
  ];
  if (subject === undefined) return probes;
  const word = value(searchWord(subject));
  const missing = subject.oib === "00000000000" ? "11111111111" : "00000000000";
  return [
    ...probes,
    get(collection(`search=${word}`)),
    get(collection(`search=${word}&ordering=naziv_subjekta&limit=2`)),
    get(collection(`institucija_grad=${value(subject.town)}&limit=3`)),
    get(`${COLLECTION_PATH}${subject.id}/?search=${word}`),
    get(`${COLLECTION_PATH}${subject.id}/?oib=${missing}`),
    get(`${COLLECTION_PATH}${subject.id}/?razina=x`),
  ];
}

/** The pages for people: the first subject's page and the results page of a search for its name. */
function peoplePages(subject: PlannedSubject | undefined): Probe[] {
  if (subject === undefined) return [];
  const get = (target: string): Probe => ({ kind: "page", method: "GET", target, headers: {} });
  return [get(`${SUBJECT_PAGES_PREFIX}${subject.id}/`), get(`${RESULTS_PATH}?search=${value(searchWord(subject))}`)];
}

/** The router's other routes: the API root, one subject found and one missing, the filters. */
function lookups(subject: PlanOptions["subject"]): Probe[] {
  const get = (target: string): Probe => ({ kind: "lookup", method: "GET", target, headers: {} });
  const probes = [
    get("/api/"),
    get("/api/.json"),
    get(`${COLLECTION_PATH}0/`),
    get(collection("oib=00000000000")),
    get(`${COLLECTION_PATH.slice(0, -1)}.json?limit=3`),
  ];
  if (subject === undefined) return probes;
  return [
    ...probes,
    get(`${COLLECTION_PATH}${subject.id}/`),
    get(`${COLLECTION_PATH}${subject.id}.json`),
    get(collection(`oib=${subject.oib}`)),
    get(collection(`jedinstvena_oznaka=${subject.code}`)),
    get(collection(`jedinstvena_oznaka=${subject.code}&oib=${subject.oib}`)),
  ];
}

/** The URL of every pre-rendered page: page 0 as a `previous` link names it (no offset), the others as `next` does. */
function preRenderedPages(manifest: Manifest): Probe[] {
  const probes: Probe[] = [];
  for (const form of manifest.forms) {
    for (const limit of manifest.limits) {
      for (let page = 0; page === 0 || page * limit < manifest.count; page++) {
        const offset = page === 0 ? null : BigInt(page * limit);
        probes.push({
          kind: "pre-rendered",
          method: "GET",
          target: collection(encodeLinkQuery(formParams(form), limit, offset)),
          headers: {},
        });
      }
    }
  }
  return probes;
}

/** `size` of the pages, seeded, the first page of each form and limit always among them, in their order. */
function samplePages(pages: readonly Probe[], size: number | undefined, random: Random): Probe[] {
  if (size === undefined || size >= pages.length) return [...pages];
  const firsts = pages.flatMap((probe, i) => (probe.target.includes("offset=") ? [] : [i]));
  const rest = pages.map((_, i) => i).filter((i) => !firsts.includes(i));
  // A partial Fisher-Yates shuffle: the first `size - firsts` of the rest, uniformly.
  const wanted = Math.max(0, size - firsts.length);
  for (let i = 0; i < wanted && i < rest.length; i++) {
    const j = i + Math.floor(random() * (rest.length - i));
    [rest[i], rest[j]] = [rest[j] as number, rest[i] as number];
  }
  const chosen = [...firsts, ...rest.slice(0, wanted)].sort((a, b) => a - b);
  return chosen.map((i) => pages[i] as Probe);
}

/** Pages no file holds: off the page grid, other limits and forms, clamped values, past the end, pretty-printed. */
function derivedPages(manifest: Manifest, random: Random): Probe[] {
  const { count, maxLimit } = manifest;
  const get = (query: string, headers: Record<string, string> = {}): Probe => ({
    kind: "derived",
    method: "GET",
    target: collection(query),
    headers,
  });
  const probes = [
    get(""),
    get(`limit=${maxLimit}`),
    get(`limit=${maxLimit + 1}&offset=1`),
    get("limit=0&offset=-3"),
    get(`offset=${count}`),
    get(`limit=3&offset=${count + 5}`),
    get("format=json&limit=5&offset=2"),
    get("zeta=1&limit=4&flag&Alpha=x%20y&offset=3"),
    get("limit=3&offset=1", { Accept: "application/json; indent=2" }),
  ];
  const forms = ["", "format=api&", "format=json&"];
  for (let i = 0; i < RANDOM_DERIVED; i++) {
    const limit = 1 + Math.floor(random() * maxLimit);
    const offset = Math.floor(random() * Math.max(count, 1));
    probes.push(get(`${forms[i % forms.length] ?? ""}limit=${limit}&offset=${offset}`));
  }
  return probes;
}
