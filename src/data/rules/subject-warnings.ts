/**
 * Rules a valid subject may break and still be published (the data rules, docs/data.md): real registries hold a
 * few OIBs with a wrong check digit, new levels appear, some institutions have no city on file.
 * `--strict` turns each into an error.
 */
import { nearestName } from "./nearest-name.ts";
import { KNOWN_RAZINA } from "./known-levels.ts";
import { oibCheckDigit } from "./oib-check-digit.ts";
import { type Message, msg } from "../../common/messages/message.ts";
// The core's Subject, which subject-schema.ts proves equal to the schema's (so the schema can name the known levels from here).
import type { Subject } from "../../core/render-page.ts";

/** A rule broken by one field, located later by the caller. */
export interface FieldWarning {
  readonly field: keyof Subject;
  readonly value: unknown;
  readonly expected: Message;
  readonly hint?: Message;
}

/** Every warning of one schema-valid subject, in field order; usually none. */
export function subjectWarnings(subject: Subject): FieldWarning[] {
  const warnings: FieldWarning[] = [];
  const check = oibCheckDigit(subject.oib);
  if (subject.oib.charCodeAt(10) - 48 !== check) {
    warnings.push({
      field: "oib",
      value: subject.oib,
      expected: msg("expected.check-digit"),
      hint: msg("hint.check-digit", { digit: check }),
    });
  }
  if (!KNOWN_RAZINA.includes(subject.razina)) {
    // Two edits at most: the known levels are three edits apart from some real new ones (regionalna).
    const near = nearestName(subject.razina, KNOWN_RAZINA, 2);
    warnings.push({
      field: "razina",
      value: subject.razina,
      expected: msg("expected.known-razina", { levels: KNOWN_RAZINA }),
      hint: near === undefined ? msg("hint.new-level") : msg("hint.did-you-mean", { name: near }),
    });
  }
  if (subject.institucija_grad.trim() === "") {
    warnings.push({
      field: "institucija_grad",
      value: subject.institucija_grad,
      expected: msg("expected.city"),
      hint: msg("hint.published-empty"),
    });
  }
  return warnings;
}
