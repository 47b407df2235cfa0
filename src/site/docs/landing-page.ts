/**
 * The landing page at `/`: static HTML, one script file (the search, search-section.ts; the JSON-LD block is data), for the
 * public: Croatian first, English beside it. What the registry is, how many subjects it holds and
 * when the data last changed, the downloads with their sizes, the publisher, contact, licence and
 * source, every field with its rule (read from the published JSON Schema, itself generated from the
 * zod schema), example requests (paging, searching, filtering, ordering, and what a site of plain
 * files cannot answer), and the description files. Accessible (WCAG 2.1 AA: one h1 and
 * ordered headings, each language marked, text contrast above 7:1, a table with header cells).
 * Links are relative, so the page works unchanged on every origin the site is served from.
 */
import { COLLECTION_PATH } from "../../core/build-links.ts";
import { PUBLISHED_FILES } from "../../core/published-files.ts";
import { DOWNLOAD_KINDS, type Download } from "../../core/download-files.ts";
import type { DatasetMetadata } from "./dataset-metadata.ts";
import { contributorWith, croatian } from "./metadata-views.ts";
import type { PropertySchema } from "./data-package.ts";
import { SEARCH_SCRIPT_PATH } from "../../core/html/page-style.ts";
import { searchSection, searchSectionHead } from "./search-section.ts";
import { RESULTS_PATH } from "../../core/html/search-form.ts";
import { downloadRecipesSection } from "./download-recipes.ts";

/** The facts of the build the page shows. */
export interface LandingFacts {
  readonly count: number;
  readonly maxLimit: number;
  readonly downloads: readonly Download[];
  /** When the data last changed (never the clock: reproducible). */
  readonly published: Date;
  /** The schema.org Dataset (schema-org.ts), embedded as JSON-LD. */
  readonly dataset: Record<string, unknown>;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside HTML elements and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const SCHEMA_PATHS = Object.keys(PUBLISHED_FILES).filter((path) => path !== "/" && path !== SEARCH_SCRIPT_PATH);

/** What each description file is, for the list on the page. */
const DESCRIBED: Readonly<Record<string, { readonly hr: string; readonly en: string }>> = {
  "/openapi.json": { hr: "OpenAPI 3.1 opis API-ja", en: "the API in OpenAPI 3.1" },
  "/schema/subject.json": { hr: "JSON shema subjekta", en: "JSON Schema of a subject" },
  "/schema/page.json": { hr: "JSON shema stranice", en: "JSON Schema of a page" },
  "/datapackage.json": { hr: "Frictionless Data Package s preuzimanjima", en: "the downloads as a Frictionless Data Package" },
  "/catalog.ttl": { hr: "DCAT-AP 3.0.1 katalog (Turtle)", en: "the DCAT-AP 3.0.1 catalogue (Turtle)" },
  "/catalog.jsonld": { hr: "DCAT-AP 3.0.1 katalog (JSON-LD)", en: "the DCAT-AP 3.0.1 catalogue (JSON-LD)" },
};

/** A field's JSON type and the constraints a schema states, in a few words. */
function shape(property: PropertySchema): string {
  const parts = [property.type ?? "any"];
  if (property.format !== undefined) parts.push(`format ${property.format}`);
  if (property.minimum !== undefined) parts.push(`≥ ${property.minimum}`);
  if (property.minLength !== undefined) parts.push(`length ≥ ${property.minLength}`);
  // A long pattern (razina's, every lowercase letter written out) is named, not printed: the schema holds it.
  if (property.pattern !== undefined) parts.push(property.pattern.length > 40 ? "pattern in the schema" : `pattern ${property.pattern}`);
  return parts.join(", ");
}

/** A size in bytes as people read it, in Croatian and English number forms. */
function size(bytes: number): { hr: string; en: string } {
  const units = ["B", "KB", "MB", "GB"];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  const digits = unit === 0 ? 0 : 1;
  return {
    hr: `${value.toLocaleString("hr-HR", { maximumFractionDigits: digits })} ${units[unit]}`,
    en: `${value.toLocaleString("en-GB", { maximumFractionDigits: digits })} ${units[unit]}`,
  };
}

/** JSON inside a <script> block: `<` escaped, so no text in it can close the block. */
function scriptJson(value: unknown): string {
  return JSON.stringify(value, null, 1).replace(/</g, "\\u003c");
}

/** The landing page's HTML. */
export function landingPage(
  metadata: DatasetMetadata,
  facts: LandingFacts,
  subjectSchema: { readonly properties?: Readonly<Record<string, PropertySchema>> },
): string {
  const sections = [
    downloadsSection(facts) + downloadRecipesSection(facts.downloads),
    aboutSection(metadata),
    requestsSection(facts),
    descriptionsSection(),
    changesSection(),
    fieldsSection(subjectSchema),
  ];
  return `<!doctype html>
<html lang="hr">
${headPart(metadata, facts)}
<body>
${headerPart(metadata, facts)}
<main>
${searchSection()}
${sections.join("\n\n")}
</main>
</body>
</html>
`;
}

const e = escapeHtml;
const link = (href: string, text = href): string => `<a href="${e(href)}">${e(text)}</a>`;
/** The same text in Croatian, then in English marked as such. */
const both = (hrText: string, enText: string, tag = "p"): string =>
  `<${tag}>${hrText}</${tag}>\n<${tag} lang="en" class="en">${enText}</${tag}>`;
/** A list item: what `href` is, in Croatian and in English. */
const item = (first: string, hrText: string, enText: string): string =>
  `<li>${first} — ${e(hrText)} <span lang="en" class="en">(${e(enText)})</span></li>`;

/** `<head>`: the title, the description, the schema.org Dataset as JSON-LD, the style. */
function headPart(metadata: DatasetMetadata, facts: LandingFacts): string {
  const hr = croatian(metadata);
  return `<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(hr.title)} · ${e(metadata.title)}</title>
<meta name="description" content="${e(hr.description)}">
${searchSectionHead()}<script type="application/ld+json">
${scriptJson(facts.dataset)}
</script>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 64rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; background: #fff; }
a { color: #0b4f9c; }
.en { color: #333; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { border: 1px solid #767676; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
thead th { background: #eef1f5; }
code { background: #f3f3f3; border-radius: 3px; padding: 0 0.2rem; }
.hash { font-size: 0.75rem; word-break: break-all; }
.facts { font-size: 1.3rem; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: 0.2rem 1rem; }
dt { font-weight: bold; }
</style>
</head>`;
}

/** `<header>`: the title, what the registry is, how many subjects and when the data last changed. */
function headerPart(metadata: DatasetMetadata, facts: LandingFacts): string {
  const hr = croatian(metadata);
  const count = { hr: facts.count.toLocaleString("hr-HR"), en: facts.count.toLocaleString("en-GB") };
  const day = facts.published.toISOString().slice(0, 10);
  const [y, m, d] = day.split("-");
  const dateHr = `${Number(d)}. ${Number(m)}. ${y}.`;
  return `<header>
<h1>${e(hr.title)} <span lang="en" class="en">/ ${e(metadata.title)}</span></h1>
${both(e(hr.description), e(metadata.description))}
<p class="facts"><strong id="count">${count.hr} subjekata</strong> · zadnja promjena podataka <time datetime="${day}" id="changed">${dateHr}</time></p>
<p class="facts en" lang="en"><strong>${count.en} subjects</strong> · data last changed on <time datetime="${day}">${day}</time></p>
</header>`;
}

/** The downloads: each file with its format, size, SHA-256 and immutable copy. */
function downloadsSection(facts: LandingFacts): string {
  const downloads = facts.downloads
    .map((d) => {
      const kind = DOWNLOAD_KINDS[d.format];
      const s = size(d.bytes);
      return `<tr><th scope="row">${link(d.path)}</th><td>${e(kind.title.hr)}<br><span lang="en">${e(kind.title.en)}</span></td><td>${e(s.hr)}<br><span lang="en">${e(s.en)}</span></td><td><code class="hash">${e(d.sha256)}</code><br>${link(d.immutablePath, "nepromjenjiva kopija / immutable copy")}</td></tr>`;
    })
    .join("\n");
  return `<h2>Preuzimanja <span lang="en" class="en">/ Downloads</span></h2>
${both("Cijeli popis u jednoj datoteci, redom po <code>id</code>, deset polja. Stalna adresa uvijek daje najnoviji popis; nepromjenjiva kopija nosi SHA-256 u imenu.", "The whole list in one file, in <code>id</code> order, the ten fields. The stable URL always gives the latest list; the immutable copy carries its SHA-256 in its name.")}
${
  facts.downloads.length === 0
    ? both("Ova objava nema preuzimanja.", "This site has no downloads.")
    : `<table>
<caption>Preuzimanja / Downloads</caption>
<thead><tr><th scope="col">datoteka / file</th><th scope="col">oblik / format</th><th scope="col">veličina / size</th><th scope="col">SHA-256</th></tr></thead>
<tbody>
${downloads}
</tbody>
</table>`
}`;
}

/** The publisher, the contact, the licences and the sources. */
function aboutSection(metadata: DatasetMetadata): string {
  const sources = metadata.sources
    .map((source) => `<li>${source.path === undefined ? e(source.title) : link(source.path, source.title)}</li>`)
    .join("\n");
  const licences = metadata.licenses.map((licence) => `<li>${link(licence.path, licence.title)}</li>`).join("\n");
  const publisher = contributorWith(metadata, "publisher");
  const contact = contributorWith(metadata, "contact") ?? publisher;
  const who = (c: typeof publisher): string =>
    c === undefined
      ? "—"
      : [c.path === undefined ? e(c.title) : link(c.path, c.title), c.email === undefined ? "" : link(`mailto:${c.email}`, c.email)]
          .filter((x) => x !== "")
          .join(", ");
  return `<h2>Izdavač, kontakt, licencija, izvor <span lang="en" class="en">/ Publisher, contact, licence, source</span></h2>
<dl>
<dt>Izdavač <span lang="en">/ Publisher</span></dt><dd>${who(publisher)}</dd>
<dt>Kontakt <span lang="en">/ Contact</span></dt><dd>${who(contact)}</dd>
<dt>Licencija <span lang="en">/ Licence</span></dt><dd>${licences === "" ? 'Licencija nije navedena. <span lang="en">No licence is declared.</span>' : `<ul>\n${licences}\n</ul>`}</dd>
<dt>Izvor <span lang="en">/ Source</span></dt><dd>${sources === "" ? 'Izvor nije naveden. <span lang="en">No source is declared.</span>' : `<ul>\n${sources}\n</ul>`}</dd>
</dl>`;
}

/** How to ask: the paging, example pages, the lookups by key, CORS. */
function requestsSection(facts: LandingFacts): string {
  const examples: [string, string, string][] = [
    [COLLECTION_PATH, "prva stranica (20 subjekata)", "the first page (20 subjects)"],
    [`${COLLECTION_PATH}?limit=5&offset=10`, "5 subjekata od 11.", "5 subjects from the 11th"],
    [`${COLLECTION_PATH}?limit=${facts.maxLimit}`, `najveća stranica (${facts.maxLimit})`, `the largest page (${facts.maxLimit})`],
    [`${COLLECTION_PATH}?format=api&limit=3`, "format=api ostaje u poveznicama", "format=api, kept in the links"],
  ];
  // Searching, filtering and ordering (docs/search.md): a word without its diacritics, a choice, a date range, an order.
  const searches: [string, string, string][] = [
    [`${COLLECTION_PATH}?search=zagreb`, "naziv ili mjesto sadrži „zagreb”", "the name or the town holds “zagreb”"],
    [
      `${COLLECTION_PATH}?search=vrtic%20osijek`,
      "svaka riječ, bez obzira na dijakritike i velika slova",
      "every word, whatever the diacritics and the case",
    ],
    [`${COLLECTION_PATH}?razina=nacionalna&limit=5`, "samo nacionalna razina", "the national level only"],
    [`${COLLECTION_PATH}?datum_postanka__gte=2000-01-01&status_subjekta=true`, "osnovani od 2000., aktivni", "founded since 2000, active"],
    [`${COLLECTION_PATH}?ordering=-datum_postanka&limit=5`, "najnoviji prvi", "the newest first"],
    [
      `${COLLECTION_PATH}?ordering=institucija_grad,naziv_subjekta`,
      "po mjestu pa po nazivu, hrvatskim redom",
      "by town, then by name, in Croatian order",
    ],
  ];
  // Keys of any list: the reader puts in a subject's own (docs/lookup.md).
  const lookups: [string, string, string][] = [
    ["/api/", "korijen API-ja", "the API root"],
    [`${COLLECTION_PATH}<id>/`, "jedan subjekt po id-u", "one subject by id"],
    [`${COLLECTION_PATH}?oib=<oib>`, "subjekti s tim OIB-om", "the subjects with that OIB"],
    [`${COLLECTION_PATH}?jedinstvena_oznaka=<oznaka>`, "subjekt s tom oznakom", "the subject with that code"],
  ];
  return `<h2>Zahtjevi <span lang="en" class="en">/ Requests</span></h2>
${both(
  `API odgovara točno kao izvorni popis u Django REST Frameworku (<code>LimitOffsetPagination</code>): <code>limit</code> (zadano 20, najviše ${facts.maxLimit}), <code>offset</code> (zadano 0) i <code>format</code> (<code>api</code> ili <code>json</code>). Svaka stranica ima <code>count</code>, <code>next</code>, <code>previous</code> i <code>results</code>, uzlazno po <code>id</code>.`,
  `The API answers exactly as the original Django REST Framework list did (<code>LimitOffsetPagination</code>): <code>limit</code> (default 20, at most ${facts.maxLimit}; a bad value falls back, never an error), <code>offset</code> (default 0) and <code>format</code> (<code>api</code> or <code>json</code>; anything else is a 404). Each page holds <code>count</code>, <code>next</code>, <code>previous</code> and <code>results</code>, in ascending <code>id</code>.`,
)}
<ul>
${examples.map(([href, hrText, enText]) => item(link(href), hrText, enText)).join("\n")}
</ul>
${both("Jedan subjekt po ključu:", "One subject by its key:")}
<ul>
${lookups.map(([href, hrText, enText]) => item(`<code>${e(href)}</code>`, hrText, enText)).join("\n")}
</ul>
${both(
  "Pretraživanje, filtri i redoslijed, kao u DRF-u (<code>search</code>, <code>razina</code>, <code>institucija_grad</code>, <code>status_subjekta</code>, <code>odobreno</code>, <code>datum_postanka</code> s <code>__gte</code> i <code>__lte</code>, <code>ordering</code>):",
  `Searching, filtering and ordering, as DRF answers them (<code>search</code>, <code>razina</code>, <code>institucija_grad</code>, <code>status_subjekta</code>, <code>odobreno</code>, <code>datum_postanka</code> with <code>__gte</code> and <code>__lte</code>, <code>ordering</code>; every parameter in ${link("/openapi.json")}). An invalid choice or date answers 400 with DRF's errors, such as <code>{"razina":["Select a valid choice. x is not one of the available choices."]}</code>.`,
)}
<ul>
${searches.map(([href, hrText, enText]) => item(link(href), hrText, enText)).join("\n")}
</ul>
${both(
  `Upite odgovara poslužitelj koji usmjerava zahtjeve (Netlifyjeva edge funkcija, Cloudflare Worker, <code>subjekti serve</code>). Objava kao obične datoteke (<code>subjekti build --links files</code>) ne može pročitati upit: ondje nema pretraživanja ni filtara, samo stranice popisa kao datoteke (<code>/api/subjekti/index.json</code> i njezine poveznice <code>next</code>) i stranica svake institucije. Pretraživanje za ljude je obrazac na vrhu ove stranice, s rezultatima na <code>${RESULTS_PATH}</code>.`,
  `Query strings are answered by a host that routes requests (the Netlify edge function, the Cloudflare Worker, <code>subjekti serve</code>, nginx in front of it). A site of plain files (<code>subjekti build --links files</code>, for GitHub Pages or a bucket) cannot read a query string: it answers no search, filter or ordering, only the list's pages as files (<code>/api/subjekti/index.json</code> and its <code>next</code> links) and each institution's page. The search for people is the form at the top of this page, its results at <code>${RESULTS_PATH}</code>.`,
)}
${both(
  "Svaki odgovor nosi <code>Access-Control-Allow-Origin: *</code>, pa ga može čitati svaka web-stranica.",
  "Any web page may call it: every answer carries <code>Access-Control-Allow-Origin: *</code> and exposes <code>ETag</code> and <code>Allow</code>; preflights are answered, so custom headers and <code>If-None-Match</code> (304) work from a browser.",
)}`;
}

/** The description files, for programs and portals. */
function descriptionsSection(): string {
  return `<h2>Opis za programe i portale <span lang="en" class="en">/ Descriptions for programs and portals</span></h2>
<ul>
${SCHEMA_PATHS.map((path) => `<li>${link(path)}${DESCRIBED[path] === undefined ? "" : ` — ${e(DESCRIBED[path].hr)} <span lang="en" class="en">(${e(DESCRIBED[path].en)})</span>`}</li>`).join("\n")}
</ul>`;
}

/** The change feed, for mirrors and feed readers. */
function changesSection(): string {
  return `<h2>Promjene <span lang="en" class="en">/ Changes</span></h2>
${both(
  `Kopija popisa drugdje ostaje usklađena kroz tok promjena: ${link("/changes/state.json")}; isto za čitače feedova: ${link("/changes/feed.atom")}.`,
  `A copy of the list kept elsewhere stays in step through the change feed: ${link("/changes/state.json")} names the current sequence and version (the SHA-256 of the whole list as NDJSON) and the snapshot; each later sequence is one diff by id (<code>/changes/&lt;sequence&gt;.json</code>). <code>subjekti sync &lt;origin&gt; subjekti.ndjson</code> keeps a local copy verified at every step. People can follow the same changes in a feed reader: ${link("/changes/feed.atom")}.`,
)}`;
}

/** Every field of a subject with its type and rule, from the published JSON Schema. */
function fieldsSection(subjectSchema: { readonly properties?: Readonly<Record<string, PropertySchema>> }): string {
  const fields = Object.entries(subjectSchema.properties ?? {})
    .map(
      ([name, property]) =>
        `<tr><th scope="row"><code>${e(name)}</code></th><td lang="en">${e(shape(property))}</td><td lang="en">${e(property.description ?? "")}</td></tr>`,
    )
    .join("\n");
  return `<h2>Polja subjekta <span lang="en" class="en">/ Fields of a subject</span></h2>
<table>
<caption>Deset polja, pravila iz JSON sheme <span lang="en">/ The ten fields, rules from the JSON Schema</span></caption>
<thead><tr><th scope="col">polje / field</th><th scope="col">tip / type</th><th scope="col">pravilo / rule</th></tr></thead>
<tbody>
${fields}
</tbody>
</table>`;
}
