/**
 * What the published description says about the data itself: its title, description, sources
 * and licences, from one small file beside the data. The file is a Frictionless Data Package
 * descriptor (`datapackage.json`, the open-data convention for exactly this), of which the build
 * reads the fields below; it is validated like the data and is never read as a source of subjects.
 */
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import * as z from "zod";
import { displayPath, METADATA_FILE } from "../../data/sources/find-sources.ts";
import { DataError, type Problem } from "../../data/problems/problems.ts";
import { showValue } from "../../data/problems/problem-parts.ts";
import { type Message, type MessageKey, msg } from "../../common/messages/message.ts";
import { isMessageKey } from "../../common/messages/translate.ts";
import { safeIri } from "./rdf-graph.ts";
import { isErrno } from "../../common/machine-error.ts";

// Each rule's error is the key of its sentence in the message catalogue (src/common/messages).
const line = (what: MessageKey) => z.string({ error: what }).trim().min(1, { error: what });
// z.url() takes what WHATWG's URL parser would mend (spaces, `>`, `"`, braces, `|`, `^`, backticks), and
// these become the catalogue's IRIs: a URL is refused unless it is an IRI as it stands.
const url = z
  .url({ protocol: /^https?$/, error: "expected.meta-url" })
  .refine((text) => safeIri(text) === text, { error: "expected.meta-iri" });

/** A person or body named by the descriptor (a Data Package `contributor`); `roles` says what it is to the data. */
const contributorSchema = z.strictObject({
  title: line("expected.meta-contributor-title"),
  path: url.optional(),
  email: z.email({ error: "expected.meta-email" }).optional(),
  roles: z
    .array(z.enum(["publisher", "contact", "creator", "author", "maintainer", "contributor"], { error: "expected.meta-role" }))
    .optional(),
});

/** The fields of a Data Package descriptor the build uses (others, such as `resources`, are allowed and ignored). */
export const metadataSchema = z.object({
  /** The dataset's IRI in catalogues (DCAT): stable across builds, whatever origin the site is built for. */
  id: url.optional(),
  title: line("expected.meta-title"),
  description: line("expected.meta-description"),
  /** The title and description in Croatian (the landing page and the catalogues give both languages). */
  hr: z.strictObject({ title: line("expected.meta-hr-title"), description: line("expected.meta-hr-description") }).optional(),
  contributors: z.array(contributorSchema, { error: "expected.meta-contributors" }).optional(),
  sources: z
    .array(z.strictObject({ title: line("expected.meta-source-title"), path: url.optional() }), { error: "expected.meta-sources" })
    .min(1, { error: "expected.meta-one-source" }),
  licenses: z
    .array(z.strictObject({ name: line("expected.meta-licence-name").optional(), title: line("expected.meta-licence-title"), path: url }), {
      error: "expected.meta-licences",
    })
    .min(1, { error: "expected.meta-one-licence" }),
});

export type DatasetMetadata = z.infer<typeof metadataSchema>;
export type Contributor = z.infer<typeof contributorSchema>;

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
