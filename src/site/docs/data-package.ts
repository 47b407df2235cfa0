/**
 * `/datapackage.json`: the site's downloads as a Frictionless Data Package (v2), the open-data
 * convention tools such as frictionless-py, CKAN's importers and R's `frictionless` read. Each
 * download is a resource with its bytes and hash, and the Table Schema of a subject, generated from
 * the published JSON Schema (itself from the one zod schema: no rule is restated here), plus the
 * title, licences, sources and contributors of the maintainer's `data/datapackage.json`.
 */
import { DOWNLOAD_KINDS, type Download } from "../../core/download-files.ts";
import { UNIQUE_FIELDS } from "../../data/rules/subject-fields.ts";
import type { DatasetMetadata } from "./dataset-metadata.ts";

/** A property of the subject's JSON Schema, as far as a Table Schema needs it. */
export interface PropertySchema {
  readonly type?: string;
  readonly format?: string;
  readonly pattern?: string;
  readonly minLength?: number;
  readonly minimum?: number;
  readonly description?: string;
}

export interface SubjectJsonSchema {
  readonly properties?: Readonly<Record<string, PropertySchema>>;
  readonly required?: readonly string[];
}

/** The Data Package profile the descriptor follows. */
export const DATA_PACKAGE_PROFILE = "https://datapackage.org/profiles/2.0/datapackage.json";

/** A Table Schema field from a JSON Schema property: the type, and the constraints both can state. */
function tableField(name: string, property: PropertySchema, required: boolean): Record<string, unknown> {
  const type = property.type === "string" && property.format === "date" ? "date" : (property.type ?? "any");
  const constraints: Record<string, unknown> = {};
  if (required) constraints["required"] = true;
  if (UNIQUE_FIELDS.includes(name as (typeof UNIQUE_FIELDS)[number])) constraints["unique"] = true;
  if (property.minimum !== undefined) constraints["minimum"] = property.minimum;
  if (property.minLength !== undefined) constraints["minLength"] = property.minLength;
  if (property.pattern !== undefined) constraints["pattern"] = property.pattern.replace(/^\^/, "").replace(/\$$/, "");
  return {
    name,
    type,
    ...(type === "date" ? { format: "default" } : {}),
    ...(type === "boolean" ? { trueValues: ["true"], falseValues: ["false"] } : {}),
    ...(property.description === undefined ? {} : { description: property.description }),
    constraints,
  };
}

/** The Table Schema of a subject. */
export function tableSchema(subject: SubjectJsonSchema): Record<string, unknown> {
  const required = new Set(subject.required ?? []);
  return {
    fields: Object.entries(subject.properties ?? {}).map(([name, property]) => tableField(name, property, required.has(name))),
    primaryKey: ["id"],
  };
}

/** The descriptor's resource for one download. */
function resource(download: Download, schema: Record<string, unknown>): Record<string, unknown> {
  const kind = DOWNLOAD_KINDS[download.format];
  const table = download.format !== "xlsx";
  return {
    name: `subjekti-${download.format}`,
    // Relative to the descriptor (the site's root), as the Data Package spec reads a path.
    path: download.path.slice(1),
    type: "table",
    format: kind.extension,
    mediatype: kind.mediaType.split(";")[0],
    ...(table ? { encoding: "utf-8" } : {}),
    bytes: download.bytes,
    hash: `sha256:${download.sha256}`,
    title: kind.title.en,
    // The CSV the export writes (and the build reads back): `;`, CRLF, a header line.
    ...(download.format === "csv" ? { dialect: { delimiter: ";", lineTerminator: "\r\n", header: true } } : {}),
    schema,
  };
}

/** The descriptor of the site's downloads. */
export function dataPackage(
  metadata: DatasetMetadata,
  downloads: readonly Download[],
  subject: SubjectJsonSchema,
  published: Date,
): Record<string, unknown> {
  const schema = tableSchema(subject);
  return {
    $schema: DATA_PACKAGE_PROFILE,
    name: "subjekti",
    ...(metadata.id === undefined ? {} : { id: metadata.id }),
    title: metadata.title,
    description: metadata.description,
    created: published.toISOString(),
    ...(metadata.licenses.length === 0 ? {} : { licenses: metadata.licenses }),
    ...(metadata.sources.length === 0 ? {} : { sources: metadata.sources }),
    ...(metadata.contributors === undefined ? {} : { contributors: metadata.contributors }),
    resources: downloads.map((download) => resource(download, schema)),
  };
}
