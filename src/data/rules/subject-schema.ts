/**
 * What a subject in the source data must be (the data rules, docs/data.md), as a zod schema: the one source of
 * the `Subject` type the build reads and of the "expected …" half of every problem message (each
 * rule's error is the key of its sentence in the message catalogue, src/common/messages).
 * Warnings (rules a record may break and still be published) are in subject-warnings.ts.
 */
import type * as Zod from "zod";
import type { Subject as CoreSubject } from "../../core/render-page.ts";
import { isCalendarDate } from "./calendar-date.ts";
import { KNOWN_RAZINA } from "./known-levels.ts";
import { LOWERCASE_WORD } from "./lowercase-word.ts";

const DIGITS = /^[0-9]+$/;
const OIB = /^[0-9]{11}$/;

/**
 * One record of the source data: exactly these ten fields (an unknown one is an error). Each
 * field's `meta` describes it for the published JSON Schema and OpenAPI document (describe-api.ts),
 * including the rules a schema cannot state (uniqueness, order, the check digit, the warnings).
 *
 * Made with the zod it is given, not imported here: the read makes it with zod's CommonJS build,
 * loaded synchronously at the first record that is not plainly fine (validate-subject.ts), so a
 * build of plainly fine records never loads zod; the description makes its own (describe-api.ts).
 */
export function subjectSchemaOf(z: typeof Zod) {
  const flag = z.boolean({ error: "expected.true-or-false" });
  const text = z.string({ error: "expected.string" });
  return z.strictObject({
    id: z
      .int({ error: "expected.id" })
      .min(1, { error: "expected.id" })
      .meta({
        description: "The subject's number: an integer ≥ 1, unique. The list is in ascending id; ids may have gaps.",
        examples: [1],
      }),
    jedinstvena_oznaka: z
      .string({ error: "expected.code-string" })
      .regex(DIGITS, { error: "expected.code", abort: true })
      .min(4, { error: "expected.code" })
      .meta({
        description: "The subject's code: at least 4 digits (zero-padded), as a string; unique, and strictly increasing with id.",
        examples: ["0001"],
      }),
    naziv_subjekta: z
      .string({ error: "expected.name" })
      .min(1, { error: "expected.name" })
      .meta({ description: "The subject's name: a non-empty string, any Unicode (č ć đ š ž as they are)." }),
    oib: z
      .string({ error: "expected.oib-string" })
      .regex(OIB, { error: "expected.oib" })
      .meta({
        description:
          "The Croatian personal identification number: exactly 11 ASCII digits, as a string (leading zeros kept). The last digit is an ISO 7064 MOD 11,10 check digit; real registries hold a few that fail it, which are published (the build warns).",
        examples: ["02735615212"],
      }),
    razina: z
      .string({ error: "expected.razina" })
      .regex(LOWERCASE_WORD, { error: "expected.razina" })
      .meta({
        description: `The level: a lowercase word. The known levels are ${KNOWN_RAZINA.join(" and ")}; another word is published (the build warns).`,
        examples: [...KNOWN_RAZINA],
      }),
    datum_postanka: z
      .string({ error: "expected.date-string" })
      .refine(isCalendarDate, { error: "expected.date" })
      .meta({
        description: "The founding date: a real calendar date YYYY-MM-DD (no 2023-02-30).",
        format: "date",
        examples: ["1993-04-01"],
      }),
    status_subjekta: flag.meta({ description: "The subject's status flag: a JSON boolean, never a string." }),
    odobreno: flag.meta({ description: "The approval flag: a JSON boolean, never a string." }),
    institucija_grad: text.meta({
      description: "The place of the institution (it can differ from the place in the name): a string; may be empty (the build warns).",
    }),
    institucija_email: text.meta({
      description:
        'Contact: any string. One e-mail address, several joined by ", ", a web address, or empty; not always an e-mail address.',
    }),
  });
}

/** The schema of one record (subjectSchemaOf). */
export type SubjectSchema = ReturnType<typeof subjectSchemaOf>;

/** A subject as the build holds it, inferred from the schema. */
export type Subject = Zod.infer<SubjectSchema>;

type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

/**
 * Compile-time proof that the schema's type is the core's hand-written `Subject` (src/core is
 * pure and cannot import zod): a field added, dropped or retyped on either side fails `tsc`.
 */
export const SCHEMA_MATCHES_CORE: Same<Subject, CoreSubject> = true;
