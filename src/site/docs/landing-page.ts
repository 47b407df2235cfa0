/**
 * The landing page at `/`: static HTML, no script. What the API is, how many subjects it holds,
 * every field with its rule (read from the published JSON Schema, itself generated from the zod
 * schema), example requests as links, the description files, and the data's source and licence.
 * Links are relative, so the page works unchanged on every origin the site is served from.
 */
import { COLLECTION_PATH } from "../../core/build-links.ts";
import { PUBLISHED_FILES } from "../../core/published-files.ts";
import type { DatasetMetadata } from "./dataset-metadata.ts";

/** The facts of the build the page shows. */
export interface LandingFacts {
  readonly count: number;
  readonly maxLimit: number;
}

interface PropertySchema {
  readonly type?: string;
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly minimum?: number;
  readonly description?: string;
}

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

/** Text safe inside HTML elements and double-quoted attributes. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);
}

const SCHEMA_PATHS = Object.keys(PUBLISHED_FILES).filter((path) => path !== "/");

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

/** The landing page's HTML. */
export function landingPage(metadata: DatasetMetadata, facts: LandingFacts, subjectSchema: { readonly properties?: Readonly<Record<string, PropertySchema>> }): string {
  const e = escapeHtml;
  const count = facts.count.toLocaleString("en-US");
  const link = (href: string, text = href): string => `<a href="${e(href)}">${e(text)}</a>`;
  const examples = [
    [COLLECTION_PATH, "the first page (20 subjects)"],
    [`${COLLECTION_PATH}?limit=5&offset=10`, "5 subjects from the 11th"],
    [`${COLLECTION_PATH}?limit=${facts.maxLimit}`, `the largest page (${facts.maxLimit})`],
    [`${COLLECTION_PATH}?format=api&limit=3`, "format=api, kept in the links"],
  ];
  const fields = Object.entries(subjectSchema.properties ?? {})
    .map(([name, property]) => `<tr><td><code>${e(name)}</code></td><td>${e(shape(property))}</td><td>${e(property.description ?? "")}</td></tr>`)
    .join("\n");
  const sources = metadata.sources.map((source) => `<li>${source.path === undefined ? e(source.title) : link(source.path, source.title)}</li>`).join("\n");
  const licences = metadata.licenses.map((licence) => `<li>${link(licence.path, licence.title)}</li>`).join("\n");
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${e(metadata.title)}</title>
<style>
body { font: 16px/1.5 system-ui, sans-serif; max-width: 60rem; margin: 2rem auto; padding: 0 1rem; color: #1a1a1a; }
table { border-collapse: collapse; width: 100%; font-size: 0.9rem; }
th, td { border: 1px solid #ccc; padding: 0.3rem 0.5rem; text-align: left; vertical-align: top; }
code, pre { background: #f3f3f3; border-radius: 3px; padding: 0 0.2rem; }
pre { padding: 0.5rem; overflow-x: auto; }
.count { font-size: 1.4rem; }
</style>
</head>
<body>
<h1>${e(metadata.title)}</h1>
<p>${e(metadata.description)}</p>
<p class="count"><strong id="count">${count} subjects</strong>, served at ${link(COLLECTION_PATH)} as JSON, a page at a time.</p>

<h2>Requests</h2>
<p>The API answers exactly as the original Django REST Framework list did (<code>LimitOffsetPagination</code>):
<code>limit</code> (default 20, at most ${facts.maxLimit}; a bad value falls back, never an error), <code>offset</code>
(default 0) and <code>format</code> (<code>api</code> or <code>json</code>; anything else is a 404). Each page holds
<code>count</code>, <code>next</code>, <code>previous</code> and <code>results</code>, in ascending <code>id</code>.</p>
<ul>
${examples.map(([href, text]) => `<li>${link(href ?? "")} — ${e(text ?? "")}</li>`).join("\n")}
</ul>
<p>Any web page may call it: every answer carries <code>Access-Control-Allow-Origin: *</code> and exposes
<code>ETag</code> and <code>Allow</code>; preflights are answered, so custom headers and <code>If-None-Match</code> (304) work from a browser.</p>

<h2>Description</h2>
<ul>
${SCHEMA_PATHS.map((path) => `<li>${link(path)}</li>`).join("\n")}
</ul>
<p>The OpenAPI 3.1 document and the JSON Schemas (2020-12) are generated from the same schema that validates the data.</p>

<h2>Changes</h2>
<p>A copy of the list kept elsewhere stays in step through the change feed: ${link("/changes/state.json")} names the current
sequence and version (the SHA-256 of the whole list as NDJSON) and the snapshot; each later sequence is one diff by id
(<code>/changes/&lt;sequence&gt;.json</code>). <code>subjekti sync &lt;origin&gt; subjekti.ndjson</code> keeps a local copy verified at every step.
People can follow the same changes in a feed reader: ${link("/changes/feed.atom")}.</p>

<h2>Fields of a subject</h2>
<table>
<thead><tr><th>field</th><th>type</th><th>rule</th></tr></thead>
<tbody>
${fields}
</tbody>
</table>

<h2>Data</h2>
${sources === "" ? "<p>No source is declared (add <code>datapackage.json</code> beside the data).</p>" : `<p>Source:</p>\n<ul>\n${sources}\n</ul>`}
${licences === "" ? "<p>No licence is declared.</p>" : `<p>Licence:</p>\n<ul>\n${licences}\n</ul>`}
</body>
</html>
`;
}
