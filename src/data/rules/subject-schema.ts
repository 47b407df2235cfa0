/**
 * What a subject in the source data must be (the data rules, docs/data.md), as a zod schema: the one source of
 * the `Subject` type the build reads and of the "expected …" half of every problem message.
 * Warnings (rules a record may break and still be published) are in subject-warnings.ts.
 */
import * as z from "zod";
import type { Subject as CoreSubject } from "../../core/render-page.ts";
import { isCalendarDate } from "./calendar-date.ts";
import { KNOWN_RAZINA } from "./subject-warnings.ts";
import { LOWERCASE_WORD } from "./lowercase-word.ts";

const DIGITS = /^[0-9]+$/;
const OIB = /^[0-9]{11}$/;

const flag = z.boolean({ error: "true or false" });
const text = z.string({ error: "a string" });

/**
 * One record of the source data: exactly these ten fields (an unknown one is an error). Each
 * field's `meta` describes it for the published JSON Schema and OpenAPI document (describe-api.ts),
 * including the rules a schema cannot state (uniqueness, order, the check digit, the warnings).
 */
export const subjectSchema = z.strictObject({
  id: z
    .int({ error: "an integer ≥ 1" })
    .min(1, { error: "an integer ≥ 1" })
    .meta({ description: "The subject's number: an integer ≥ 1, unique. The list is in ascending id; ids may have gaps.", examples: [1] }),
  jedinstvena_oznaka: z
    .string({ error: "at least 4 digits as a string" })
    .regex(DIGITS, { error: "at least 4 digits (zero-padded)", abort: true })
    .min(4, { error: "at least 4 digits (zero-padded)" })
    .meta({ description: "The subject's code: at least 4 digits (zero-padded), as a string; unique, and strictly increasing with id.", examples: ["0001"] }),
  naziv_subjekta: z
    .string({ error: "a non-empty name" })
    .min(1, { error: "a non-empty name" })
    .meta({ description: "The subject's name: a non-empty string, any Unicode (č ć đ š ž as they are)." }),
  oib: z
    .string({ error: "11 digits as a string" })
    .regex(OIB, { error: "11 digits" })
    .meta({
      description:
        "The Croatian personal identification number: exactly 11 ASCII digits, as a string (leading zeros kept). The last digit is an ISO 7064 MOD 11,10 check digit; real registries hold a few that fail it, which are published (the build warns).",
      examples: ["02735615212"],
    }),
  razina: z
    .string({ error: "a lowercase word" })
    .regex(LOWERCASE_WORD, { error: "a lowercase word" })
    .meta({ description: `The level: a lowercase word. The known levels are ${KNOWN_RAZINA.join(" and ")}; another word is published (the build warns).`, examples: [...KNOWN_RAZINA] }),
  datum_postanka: z
    .string({ error: "a real date YYYY-MM-DD as a string" })
    .refine(isCalendarDate, { error: "a real date YYYY-MM-DD" })
    .meta({ description: "The founding date: a real calendar date YYYY-MM-DD (no 2023-02-30).", format: "date", examples: ["1993-04-01"] }),
  status_subjekta: flag.meta({ description: "The subject's status flag: a JSON boolean, never a string." }),
  odobreno: flag.meta({ description: "The approval flag: a JSON boolean, never a string." }),
  institucija_grad: text.meta({ description: "The place of the institution (it can differ from the place in the name): a string; may be empty (the build warns)." }),
  institucija_email: text.meta({
    description: "Contact: any string. One e-mail address, several joined by \", \", a web address, or empty; not always an e-mail address.",
  }),
});

/** A subject as the build holds it, inferred from the schema. */
export type Subject = z.infer<typeof subjectSchema>;

/** The fields no two subjects share (the build checks it across records; a schema of one record cannot say it). */
export const UNIQUE_FIELDS: readonly (keyof Subject)[] = ["id", "jedinstvena_oznaka"];

/** The ten field names, in the schema's (and the output's) order. */
export const FIELD_NAMES = Object.keys(subjectSchema.shape) as readonly (keyof Subject)[];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Compile-time proof that the schema's type is the core's hand-written `Subject` (src/core is
 * pure and cannot import zod): a field added, dropped or retyped on either side fails `tsc`.
 */
export const SCHEMA_MATCHES_CORE: Same<Subject, CoreSubject> = true;
