/**
 * The docs shard: the landing page, the OpenAPI document and the JSON Schemas, as one more shard
 * of the site plan (`_subjekti/docs.<hash>/`). Written like every shard (beside the old version,
 * renamed into place) and published by the manifest's replacement, so a reader never sees a
 * description that does not match the pages; the router serves them at their public paths
 * (published-files.ts). They depend on the count, the options, the dataset's descriptor and the
 * downloads' sizes and hashes (and the data's date): a record edit changes them through those.
 */
import type { Download } from "../../core/download-files.ts";
import { bytesEtag, etagsText } from "../../core/etag.ts";
import { ETAGS_FILE } from "../../core/layout.ts";
import { DOCS_SHARD_KEY, PUBLISHED_FILES } from "../../core/published-files.ts";
import { VERSION } from "../../core/version.ts";
import { SEARCH_SCRIPT } from "../../core/html/search-script.ts";
import { contentHash } from "../../common/content-hash.ts";
import type { DatasetMetadata } from "./dataset-metadata.ts";
import { openApiDocument, pageJsonSchema, subjectJsonSchema } from "./describe-api.ts";
import { landingPage } from "./landing-page.ts";
import { dataPackage } from "./data-package.ts";
import { catalogIris, catalogTriples } from "./dcat-catalog.ts";
import { toJsonLd, toTurtle } from "./rdf-graph.ts";
import { schemaOrgDataset } from "./schema-org.ts";
import type { ShardPlan, SiteOptions } from "../hand-offs.ts";

/** What the description says about this build's data: how many subjects, the downloads, the date the data last changed. */
export interface DocsFacts {
  readonly count: number;
  readonly downloads: readonly Download[];
  readonly published: Date;
}

/** Plans the docs shard of a site. */
export function planDocs(
  metadata: DatasetMetadata,
  facts: DocsFacts,
  options: Pick<SiteOptions, "maxLimit" | "cacheControl" | "baseUrl">,
): ShardPlan {
  const subject = subjectJsonSchema();
  const { count, downloads, published } = facts;
  const catalog = catalogTriples(metadata, { baseUrl: options.baseUrl, count, downloads, published });
  const dataset = schemaOrgDataset(metadata, {
    baseUrl: options.baseUrl,
    downloads,
    published,
    datasetIri: catalogIris(metadata, options.baseUrl).dataset,
  });
  const contents: Record<string, string> = {
    "/": landingPage(metadata, { count, maxLimit: options.maxLimit, downloads, published, dataset }, subject),
    "/datapackage.json": `${JSON.stringify(dataPackage(metadata, downloads, subject, published), null, 2)}\n`,
    "/catalog.ttl": toTurtle(catalog),
    "/catalog.jsonld": `${JSON.stringify(toJsonLd(catalog), null, 2)}\n`,
    "/openapi.json": JSON.stringify(openApiDocument(metadata, options)),
    "/schema/subject.json": JSON.stringify(subject),
    "/schema/page.json": JSON.stringify(pageJsonSchema()),
    "/pretraga.js": SEARCH_SCRIPT,
  };
  const files = Object.entries(PUBLISHED_FILES).map(([path, file]) => {
    const text = contents[path];
    if (text === undefined) throw new Error(`no content planned for the published path ${path}`);
    return { name: file.name, bytes: Buffer.from(text, "utf8") };
  });
  // Each file's ETag, in the order of PUBLISHED_FILES (the router reads line i for file i).
  files.push({ name: ETAGS_FILE, bytes: Buffer.from(etagsText(files.map((file) => bytesEtag(file.bytes)))) });
  const hash = contentHash(VERSION, "\n", DOCS_SHARD_KEY, "\n", ...files.flatMap((file) => [file.name, "\n", file.bytes, "\n"]));
  return { key: DOCS_SHARD_KEY, hash, size: files.length, name: (i) => files[i]?.name ?? "", files: () => files };
}
