/**
 * The docs shard: the landing page, the OpenAPI document and the JSON Schemas, as one more shard
 * of the site plan (`_subjekti/docs.<hash>/`). Written like every shard (beside the old version,
 * renamed into place) and published by the manifest's replacement, so a reader never sees a
 * description that does not match the pages; the router serves them at their public paths
 * (published-files.ts). They depend on the count, the options and the dataset's descriptor,
 * never on a record, so a record edit leaves the shard as it was.
 */
import { DOCS_SHARD_KEY, PUBLISHED_FILES } from "../../core/published-files.ts";
import { VERSION } from "../../core/version.ts";
import { contentHash } from "../../common/content-hash.ts";
import type { DatasetMetadata } from "./dataset-metadata.ts";
import { openApiDocument, pageJsonSchema, subjectJsonSchema } from "./describe-api.ts";
import { landingPage } from "./landing-page.ts";
import type { ShardPlan, SiteOptions } from "../hand-offs.ts";

/** Plans the docs shard of a site of `count` subjects. */
export function planDocs(metadata: DatasetMetadata, count: number, options: Pick<SiteOptions, "maxLimit" | "cacheControl">): ShardPlan {
  const subject = subjectJsonSchema();
  const contents: Record<string, string> = {
    "/": landingPage(metadata, { count, maxLimit: options.maxLimit }, subject),
    "/openapi.json": JSON.stringify(openApiDocument(metadata, options)),
    "/schema/subject.json": JSON.stringify(subject),
    "/schema/page.json": JSON.stringify(pageJsonSchema()),
  };
  const files = Object.entries(PUBLISHED_FILES).map(([path, file]) => {
    const text = contents[path];
    if (text === undefined) throw new Error(`no content planned for the published path ${path}`);
    return { name: file.name, bytes: Buffer.from(text, "utf8") };
  });
  const hash = contentHash(VERSION, "\n", DOCS_SHARD_KEY, "\n", ...files.flatMap((file) => [file.name, "\n", file.bytes, "\n"]));
  return { key: DOCS_SHARD_KEY, hash, size: files.length, name: (i) => files[i]?.name ?? "", files: () => files };
}
