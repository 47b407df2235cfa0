/**
 * What the published description says about the data itself: its title, description, sources
 * and licences, from one small file beside the data. The file is a Frictionless Data Package
 * descriptor (`datapackage.json`, the open-data convention for exactly this), of which the build
 * reads the fields below; it is validated like the data and is never read as a source of subjects.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { displayPath, METADATA_FILE } from "../../data/sources/find-sources.ts";
import { DataError, type Problem } from "../../data/problems/problems.ts";
import { showValue } from "../../data/problems/problem-parts.ts";
import { type Message, msg } from "../../common/messages/message.ts";
import { isMessageKey } from "../../common/messages/translate.ts";
import type { DatasetMetadata } from "./metadata-schema.ts";
import { safeIri } from "./rdf-graph.ts";
import { isErrno } from "../../common/machine-error.ts";

export type { Contributor, DatasetMetadata } from "./metadata-schema.ts";

/** The roles a contributor may have (metadata-schema.ts). */
const ROLES: ReadonlySet<unknown> = new Set(["publisher", "contact", "creator", "author", "maintainer", "contributor"]);
/** zod's e-mail pattern (z.email(), zod/v4/core/regexes.ts `email`; test/site/docs/dataset-metadata.test.ts holds them equal). */
export const ZOD_EMAIL = /^(?:[A-Za-z0-9_'+\-]+\.)*[A-Za-z0-9_'+\-]*[A-Za-z0-9_+-]@(?:[A-Za-z0-9][A-Za-z0-9\-]*\.)+[A-Za-z]{2,}$/;

type Fields = Record<string, unknown>;

/** A plain object of only the keys `allowed` (undefined when it is not one). */
function strictFields(value: unknown, allowed: readonly string[]): Fields | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  for (const key of Object.keys(value)) if (!allowed.includes(key)) return undefined;
  return value as Fields;
}

/** A text a `line` of the schema takes as it is: trimmed already, not empty. */
const isLine = (value: unknown): value is string => typeof value === "string" && value.length > 0 && value.trim() === value;

/** A URL the schema's `url` takes as it is: trimmed, no tab or line break, http(s)://, parsed by WHATWG's parser, an IRI as it stands. */
function isUrl(value: unknown): value is string {
  if (typeof value !== "string" || value.trim() !== value || /[\t\n\r]/.test(value) || !/^https?:\/\//i.test(value)) return false;
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return false;
  }
  return (url.protocol === "http:" || url.protocol === "https:") && safeIri(value) === value;
}

/** An optional field: absent, or what `check` takes (present as undefined never comes from JSON). */
const optional = (fields: Fields, key: string, check: (value: unknown) => boolean): boolean => !(key in fields) || check(fields[key]);

/** The fields of `fields` named in `keys`, in that order (the schema's), those present only. */
function pick<T>(fields: Fields, keys: readonly string[]): T {
  const out: Fields = {};
  for (const key of keys) if (key in fields) out[key] = fields[key];
  return out as T;
}

const CONTRIBUTOR_KEYS = ["title", "path", "email", "roles"] as const;
const SOURCE_KEYS = ["title", "path"] as const;
const LICENCE_KEYS = ["name", "title", "path"] as const;
const HR_KEYS = ["title", "description"] as const;
const TOP_KEYS = ["id", "title", "description", "hr", "contributors", "sources", "licenses"] as const;

/**
 * The descriptor as the schema (metadata-schema.ts) gives it when it certainly passes, else
 * undefined (then zod decides, and explains): every text taken as it is, so the output is the
 * input's fields in the schema's order, the other top-level fields left out. A valid descriptor
 * does not load zod (some 150 ms a build).
 */
export function quickMetadata(value: unknown): DatasetMetadata | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const top = value as Fields;
  if (!optional(top, "id", isUrl) || !isLine(top["title"]) || !isLine(top["description"])) return undefined;
  let hr: Fields | undefined;
  if ("hr" in top && ((hr = strictFields(top["hr"], HR_KEYS)) === undefined || !isLine(hr["title"]) || !isLine(hr["description"])))
    return undefined;
  const contributors = top["contributors"];
  const contributor = (item: unknown): boolean => {
    const c = strictFields(item, CONTRIBUTOR_KEYS);
    return (
      c !== undefined &&
      isLine(c["title"]) &&
      optional(c, "path", isUrl) &&
      optional(c, "email", (e) => typeof e === "string" && ZOD_EMAIL.test(e)) &&
      optional(c, "roles", (r) => Array.isArray(r) && r.every((role) => ROLES.has(role)))
    );
  };
  if ("contributors" in top && !(Array.isArray(contributors) && contributors.every(contributor))) return undefined;
  const sources = top["sources"];
  const source = (item: unknown): boolean => {
    const s = strictFields(item, SOURCE_KEYS);
    return s !== undefined && isLine(s["title"]) && optional(s, "path", isUrl);
  };
  if (!Array.isArray(sources) || sources.length === 0 || !sources.every(source)) return undefined;
  const licenses = top["licenses"];
  const licence = (item: unknown): boolean => {
    const l = strictFields(item, LICENCE_KEYS);
    return l !== undefined && optional(l, "name", isLine) && isLine(l["title"]) && isUrl(l["path"]);
  };
  if (!Array.isArray(licenses) || licenses.length === 0 || !licenses.every(licence)) return undefined;
  const out = pick<Fields>(top, TOP_KEYS);
  if (hr !== undefined) out["hr"] = pick(hr, HR_KEYS);
  if (Array.isArray(contributors))
    out["contributors"] = contributors.map((c: Fields) => {
      const picked = pick<Fields>(c, CONTRIBUTOR_KEYS);
      if (Array.isArray(c["roles"])) picked["roles"] = [...(c["roles"] as unknown[])];
      return picked;
    });
  out["sources"] = sources.map((s: Fields) => pick(s, SOURCE_KEYS));
  out["licenses"] = licenses.map((l: Fields) => pick(l, LICENCE_KEYS));
  return out as unknown as DatasetMetadata;
}

/** What the description says when the data directory holds no descriptor. */
export const UNDESCRIBED: DatasetMetadata = {
  title: "Registry of Subjects",
  description: "Croatian institutions (subjects) with their OIB, level, founding date, place and contact.",
  sources: [],
  licenses: [],
};

/** The data directory's descriptor, or UNDESCRIBED without one; its problems, located, when it is invalid. */
export async function readMetadata(dataDir: string): Promise<{ metadata: DatasetMetadata; problems: Problem[] }> {
  const path = join(dataDir, METADATA_FILE);
  const file = displayPath(path);
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    if (isErrno(error, "ENOENT")) return { metadata: UNDESCRIBED, problems: [] };
    throw error;
  }
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ""));
  } catch (error) {
    const problem: Problem = {
      severity: "error",
      file,
      expected: msg("expected.descriptor"),
      hint: msg("hint.syntax", { detail: (error as Error).message }),
    };
    return { metadata: UNDESCRIBED, problems: [problem] };
  }
  const quick = quickMetadata(value);
  if (quick !== undefined) return { metadata: quick, problems: [] };
  const { metadataSchema } = await import("./metadata-schema.ts");
  const parsed = metadataSchema.safeParse(value);
  if (parsed.success) return { metadata: parsed.data, problems: [] };
  const problems = parsed.error.issues.map((issue): Problem => {
    const field = issue.path.map(String).join(".");
    const at = issue.path.reduce<unknown>(
      (node, key) => (typeof node === "object" && node !== null ? (node as Record<PropertyKey, unknown>)[key] : undefined),
      value,
    );
    return {
      severity: "error",
      file,
      ...(field === "" ? {} : { field }),
      ...(issue.code === "unrecognized_keys" ? { value: issue.keys.join(", ") } : { value: showValue(at) }),
      expected:
        issue.code === "unrecognized_keys"
          ? msg("expected.meta-keys")
          : isMessageKey(issue.message)
            ? ({ key: issue.message } as Message)
            : msg("expected.schema", { text: issue.message }),
    };
  });
  return { metadata: UNDESCRIBED, problems };
}

/** The descriptor, or a DataError naming every problem in it. */
export async function loadMetadata(dataDir: string): Promise<DatasetMetadata> {
  const { metadata, problems } = await readMetadata(dataDir);
  if (problems.length > 0) throw new DataError(problems);
  return metadata;
}
