/**
 * The rules of the dataset's descriptor (dataset-metadata.ts) as a zod schema: the type the build
 * holds and the "expected …" half of each of its problems. Loaded only for a descriptor that is not
 * plainly fine (dataset-metadata.ts `quickMetadata`), so a build of a valid one does not load zod.
 */
import * as z from "zod";
import { safeIri } from "./rdf-graph.ts";
import type { MessageKey } from "../../common/messages/message.ts";

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

/** The descriptor's fields the build uses. */
export type DatasetMetadata = z.infer<typeof metadataSchema>;
/** A person or body the descriptor names. */
export type Contributor = z.infer<typeof contributorSchema>;
