/**
 * Stage 2 for one record: the schema decides, its messages and field-hints.ts explain, and
 * subject-warnings.ts adds what may be published anyway. Records that are plainly fine skip zod
 * (see `quickSubject`), because a million records through `safeParse` cost more than reading them.
 */
import type { z } from "zod";
import { hintFor } from "./field-hints.ts";
import { nearestName } from "./nearest-name.ts";
import { type Problem, showValue } from "./problems.ts";
import { locate, type SourceFile } from "./source-file.ts";
import { isCalendarDate } from "./calendar-date.ts";
import { FIELD_NAMES, type Subject, subjectSchema } from "./subject-schema.ts";
import { subjectWarnings } from "./subject-warnings.ts";

const FIELD_COUNT = FIELD_NAMES.length;
const OIB = /^[0-9]{11}$/;
const OZNAKA = /^[0-9]{4,}$/;
const LOWERCASE_WORD = /^\p{Ll}+$/u;

function isFieldName(key: PropertyKey | undefined): key is keyof Subject {
  return typeof key === "string" && (FIELD_NAMES as readonly string[]).includes(key);
}

/**
 * The record as a Subject when it certainly passes `subjectSchema`, else undefined (then zod
 * decides and explains). It must never accept what the schema rejects; a property test in
 * test/build/validate-subject.test.ts holds it to that. It builds a fresh object in field order,
 * so every subject has one shape whatever the key order in the file.
 */
export function quickSubject(value: unknown): Subject | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  const { id, jedinstvena_oznaka, naziv_subjekta, oib, razina, datum_postanka, status_subjekta, odobreno, institucija_grad, institucija_email } = r;
  if (
    typeof id !== "number" || !Number.isSafeInteger(id) || id < 1 ||
    typeof jedinstvena_oznaka !== "string" || !OZNAKA.test(jedinstvena_oznaka) ||
    typeof naziv_subjekta !== "string" || naziv_subjekta.length === 0 ||
    typeof oib !== "string" || !OIB.test(oib) ||
    typeof razina !== "string" || (razina !== "lokalna" && razina !== "nacionalna" && !LOWERCASE_WORD.test(razina)) ||
    typeof datum_postanka !== "string" || !isCalendarDate(datum_postanka) ||
    typeof status_subjekta !== "boolean" || typeof odobreno !== "boolean" ||
    typeof institucija_grad !== "string" || typeof institucija_email !== "string"
  ) {
    return undefined;
  }
  // The ten fields are present; any other key is an unknown field.
  if (Object.keys(r).length !== FIELD_COUNT) return undefined;
  return { id, jedinstvena_oznaka, naziv_subjekta, oib, razina, datum_postanka, status_subjekta, odobreno, institucija_grad, institucija_email };
}

/** The problems of a record zod rejected: one per field (its first issue), then unknown fields. */
function explain(issues: readonly z.core.$ZodIssue[], value: unknown, file: SourceFile, position: number): Problem[] {
  const where = locate(file, position);
  const problems: Problem[] = [];
  const seen = new Set<string>();
  for (const issue of issues) {
    const field = issue.path[0];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const near = nearestName(key, FIELD_NAMES);
        problems.push({ severity: "error", ...where, field: key, expected: "one of the ten field names", ...(near === undefined ? {} : { hint: `did you mean ${near}?` }) });
      }
    } else if (isFieldName(field)) {
      if (seen.has(field)) continue;
      seen.add(field);
      const input = (value as Record<string, unknown>)[field];
      const hint = hintFor(field, input, file.kind);
      problems.push({ severity: "error", ...where, field, value: showValue(input), expected: issue.message, ...(hint === undefined ? {} : { hint }) });
    } else {
      problems.push({ severity: "error", ...where, value: showValue(value), expected: "an object with the ten fields of a subject" });
    }
  }
  return problems;
}

/**
 * Validates one parsed record, appending its problems (errors, and warnings — as errors when
 * `strict`) to `problems`; returns the subject when it has no error.
 */
export function validateSubject(value: unknown, file: SourceFile, position: number, strict: boolean, problems: Problem[]): Subject | undefined {
  let subject = quickSubject(value);
  if (subject === undefined) {
    const result = subjectSchema.safeParse(value);
    if (!result.success) {
      problems.push(...explain(result.error.issues, value, file, position));
      return undefined;
    }
    subject = result.data;
  }
  const warnings = subjectWarnings(subject);
  if (warnings.length === 0) return subject;
  const where = locate(file, position);
  for (const w of warnings) {
    problems.push({ severity: strict ? "error" : "warning", ...where, field: w.field, value: showValue(w.value), expected: w.expected, ...(w.hint === undefined ? {} : { hint: w.hint }) });
  }
  // Still returned under --strict, so the cross-record checks see it; the error fails the run anyway.
  return subject;
}
