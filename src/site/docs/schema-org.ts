/**
 * The schema.org `Dataset` in the landing page (JSON-LD, the form search engines read for dataset
 * search): what Google's Dataset documentation requires (`name`, `description` of 50 to 5000
 * characters) and recommends (`license`, `creator`, `distribution` with `contentUrl` and
 * `encodingFormat`, `dateModified`, `spatialCoverage`, `url`, `keywords`, `isAccessibleForFree`).
 */
import { DOWNLOAD_KINDS, type Download } from "../../core/download-files.ts";
import type { Contributor, DatasetMetadata } from "./dataset-metadata.ts";
import { contributorWith, croatian } from "./metadata-views.ts";

/** A schema.org organisation from a contributor. */
function organization(contributor: Contributor): Record<string, unknown> {
  return {
    "@type": "Organization",
    name: contributor.title,
    ...(contributor.path === undefined ? {} : { url: contributor.path }),
    ...(contributor.email === undefined ? {} : { email: contributor.email }),
  };
}

/** Google shortens nothing: a description outside 50..5000 characters is not accepted, so it is fitted. */
function fitted(text: string): string {
  const padded = text.length >= 50 ? text : `${text} The whole list as JSON pages, NDJSON and CSV.`;
  return padded.length <= 5000 ? padded : `${padded.slice(0, 4999)}…`;
}

/** The Dataset, as a JSON-LD object. */
export function schemaOrgDataset(
  metadata: DatasetMetadata,
  facts: { readonly baseUrl: string; readonly downloads: readonly Download[]; readonly published: Date; readonly datasetIri: string },
): Record<string, unknown> {
  const publisher = contributorWith(metadata, "publisher");
  const creator = contributorWith(metadata, "creator") ?? publisher;
  const hr = croatian(metadata);
  return {
    "@context": "https://schema.org/",
    "@type": "Dataset",
    "@id": facts.datasetIri,
    name: metadata.title,
    alternateName: hr.title,
    description: fitted(metadata.description),
    url: `${facts.baseUrl}/`,
    inLanguage: ["hr", "en"],
    keywords: ["registar", "tijela javne vlasti", "OIB", "registry", "public authorities", "Croatia"],
    isAccessibleForFree: true,
    ...(metadata.licenses[0] === undefined ? {} : { license: metadata.licenses[0].path }),
    ...(creator === undefined ? {} : { creator: organization(creator) }),
    ...(publisher === undefined ? {} : { publisher: organization(publisher) }),
    dateModified: facts.published.toISOString(),
    spatialCoverage: { "@type": "Place", name: "Hrvatska / Croatia", geo: { "@type": "GeoShape", addressCountry: "HR" } },
    ...(metadata.sources[0]?.path === undefined ? {} : { isBasedOn: metadata.sources[0].path }),
    distribution: facts.downloads.map((download) => ({
      "@type": "DataDownload",
      contentUrl: `${facts.baseUrl}${download.path}`,
      encodingFormat: DOWNLOAD_KINDS[download.format].mediaType.split(";")[0],
      contentSize: `${download.bytes} B`,
      sha256: download.sha256,
    })),
  };
}
