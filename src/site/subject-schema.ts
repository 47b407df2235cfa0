/**
 * What a subject in the source data must be (CONTRACT §6), as a zod schema: the one source of
 * the `Subject` type the build reads and of the "expected …" half of every problem message.
 * Warnings (rules a record may break and still be published) are in subject-warnings.ts.
 */
import * as z from "zod";
import type { Subject as CoreSubject } from "../core/render-page.ts";
import { isCalendarDate } from "./calendar-date.ts";

const DIGITS = /^[0-9]+$/;
const OIB = /^[0-9]{11}$/;
/** A word in lowercase letters of any script (`lokalna`, `županijska`), nothing else. */
const LOWERCASE_WORD = /^\p{Ll}+$/u;

const flag = z.boolean({ error: "true or false" });
const text = z.string({ error: "a string" });

/** One record of the source data: exactly these ten fields (an unknown one is an error). */
export const subjectSchema = z.strictObject({
  id: z.int({ error: "an integer ≥ 1" }).min(1, { error: "an integer ≥ 1" }),
  jedinstvena_oznaka: z
    .string({ error: "at least 4 digits as a string" })
    .regex(DIGITS, { error: "at least 4 digits (zero-padded)", abort: true })
    .min(4, { error: "at least 4 digits (zero-padded)" }),
  naziv_subjekta: z.string({ error: "a non-empty name" }).min(1, { error: "a non-empty name" }),
  oib: z.string({ error: "11 digits as a string" }).regex(OIB, { error: "11 digits" }),
  razina: z.string({ error: "a lowercase word" }).regex(LOWERCASE_WORD, { error: "a lowercase word" }),
  datum_postanka: z
    .string({ error: "a real date YYYY-MM-DD as a string" })
    .refine(isCalendarDate, { error: "a real date YYYY-MM-DD" }),
  status_subjekta: flag,
  odobreno: flag,
  institucija_grad: text,
  institucija_email: text,
});

/** A subject as the build holds it, inferred from the schema. */
export type Subject = z.infer<typeof subjectSchema>;

/** The ten field names, in the schema's (and the output's) order. */
export const FIELD_NAMES = Object.keys(subjectSchema.shape) as readonly (keyof Subject)[];

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Compile-time proof that the schema's type is the core's hand-written `Subject` (src/core is
 * pure and cannot import zod): a field added, dropped or retyped on either side fails `tsc`.
 */
export const SCHEMA_MATCHES_CORE: Same<Subject, CoreSubject> = true;
