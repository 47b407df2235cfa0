/**
 * The zod schemas of the API's answers and the JSON Schemas zod makes of them: what
 * describe-api.ts publishes, read there from the snapshot `npm run api-schemas` writes of
 * `apiSchemas()` (scripts/write-api-schemas.ts) so that a build does not load zod;
 * test/site/docs/describe-api.test.ts fails when the snapshot is not this module's output.
 */
import * as z from "zod";
import { subjectSchemaOf } from "../../data/rules/subject-schema.ts";
import { type ApiSchemas, VALIDATED_FILTERS } from "./describe-api.ts";

/** One subject (subject-schema.ts), made with the zod this module imports. */
export const subjectSchema = subjectSchemaOf(z);

/** One page of the list, as DRF's LimitOffsetPagination renders it. */
export const pageSchema = z.strictObject({
  count: z.int().min(0).meta({ description: "The number of subjects in the whole list (not in this page)." }),
  next: z.url().nullable().meta({
    description:
      "The next page's absolute URL on the request's own origin (every query parameter kept, sorted; limit and offset set), or null on the last page.",
  }),
  previous: z.url().nullable().meta({
    description: "The previous page's absolute URL (no offset parameter when it would be 0), or null on the first page.",
  }),
  results: z
    .array(subjectSchema)
    .meta({ description: "The subjects of this page, in ascending id, or in the order `ordering` asks (ties by ascending id)." }),
});

const errorSchema = z.strictObject({ detail: z.string().meta({ description: "What went wrong, in DRF's words." }) });
const filterErrorSchema = z
  .strictObject(Object.fromEntries(VALIDATED_FILTERS.map((name) => [name, z.array(z.string()).min(1).optional()])))
  .meta({
    description:
      "django-filter's validation errors, by filter, every invalid filter of the request in one body, in the FilterSet's order: " +
      "a NUL character in a text filter's value, a `razina` that is not one of its choices, a date no input format reads.",
  });
const apiRootSchema = z.strictObject({
  subjekti: z
    .url()
    .meta({ description: "The list's URL on the request's own origin (with the format suffix and `format` the root was asked with)." }),
});
const metadataAnswerSchema = z.strictObject({
  name: z.string(),
  description: z.string(),
  renders: z.array(z.string()),
  parses: z.array(z.string()),
});

type JsonObject = Record<string, unknown>;

/** A standalone JSON Schema document (2020-12). */
function jsonSchema(schema: z.ZodType, title: string, description: string): JsonObject {
  const generated = z.toJSONSchema(schema, { target: "draft-2020-12" }) as JsonObject;
  const { $schema, ...rest } = generated;
  return { $schema, title, description, ...rest };
}

/** The named schemas of the answers (subject, page, errors, metadata, root), as OpenAPI components. */
function componentSchemas(): Record<string, JsonObject> {
  const registry = z.registry<{ id: string }>();
  registry.add(subjectSchema, { id: "Subject" });
  registry.add(pageSchema, { id: "Page" });
  registry.add(errorSchema, { id: "Error" });
  registry.add(metadataAnswerSchema, { id: "ViewMetadata" });
  registry.add(filterErrorSchema, { id: "FilterErrors" });
  registry.add(apiRootSchema, { id: "ApiRoot" });
  const { schemas } = z.toJSONSchema(registry, { target: "draft-2020-12", uri: (id) => `#/components/schemas/${id}` }) as {
    schemas: Record<string, JsonObject>;
  };
  // Inside an OpenAPI 3.1 document the dialect is the document's (jsonSchemaDialect), not per schema.
  for (const schema of Object.values(schemas)) {
    delete schema["$schema"];
    // zod names each schema by its URI; a fragment is no valid $id, and the component key names it already.
    delete schema["$id"];
  }
  return schemas;
}

/** Every schema describe-api.ts publishes, as zod makes them now. */
export function apiSchemas(): ApiSchemas {
  return {
    subject: jsonSchema(subjectSchema, "Subject", "One subject of the Registry of Subjects: exactly these ten fields, in this order."),
    page: jsonSchema(pageSchema, "Page", "One page of /api/subjekti/: count, next, previous, results."),
    components: componentSchemas(),
  };
}
