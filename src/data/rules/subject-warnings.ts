/**
 * Rules a valid subject may break and still be published (the data rules, docs/data.md): real registries hold a
 * few OIBs with a wrong check digit, new levels appear, some institutions have no city on file.
 * `--strict` turns each into an error.
 */
import { nearestName } from "./nearest-name.ts";
import { oibCheckDigit } from "./oib-check-digit.ts";
// The core's Subject, which subject-schema.ts proves equal to the schema's (so the schema can name the known levels from here).
import type { Subject } from "../../core/render-page.ts";

/** The levels the registry is known to use; `razina` is checked as a lowercase word first. */
export const KNOWN_RAZINA: readonly string[] = ["lokalna", "nacionalna"];

/** A rule broken by one field, located later by the caller. */
export interface FieldWarning {
  readonly field: keyof Subject;
  readonly value: unknown;
  readonly expected: string;
  readonly hint?: string;
}

/** Every warning of one schema-valid subject, in field order; usually none. */
export function subjectWarnings(subject: Subject): FieldWarning[] {
  const warnings: FieldWarning[] = [];
  const check = oibCheckDigit(subject.oib);
  if (subject.oib.charCodeAt(10) - 48 !== check) {
    warnings.push({
      field: "oib",
      value: subject.oib,
      expected: "a valid check digit (ISO 7064 MOD 11,10)",
      hint: `the last digit should be ${check} — a typo?`,
    });
  }
  if (!KNOWN_RAZINA.includes(subject.razina)) {
    // Two edits at most: the known levels are three edits apart from some real new ones (regionalna).
    const near = nearestName(subject.razina, KNOWN_RAZINA, 2);
    warnings.push({
      field: "razina",
      value: subject.razina,
      expected: KNOWN_RAZINA.map((r) => JSON.stringify(r)).join(" or "),
      hint: near === undefined ? "a new level? it is published as it is" : `did you mean ${near}?`,
    });
  }
  if (subject.institucija_grad.trim() === "") {
    warnings.push({ field: "institucija_grad", value: subject.institucija_grad, expected: "a city", hint: "published empty" });
  }
  return warnings;
}
