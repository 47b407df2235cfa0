/**
 * The read stage's rules for one record: the schema decides, its messages and field-hints.ts explain, and
 * subject-warnings.ts adds what may be published anyway. Records that are plainly fine skip zod
 * (see `quickSubject`), because a million records through `safeParse` cost more than reading them.
 */
import { createRequire } from "node:module";
import type * as Zod from "zod";
import { hintFor } from "./field-hints.ts";
import { nearestName } from "./nearest-name.ts";
import type { ProblemSink } from "../problems/problems.ts";
import { showNumberText, showValue } from "../problems/problem-parts.ts";
import { type Message, msg } from "../../common/messages/message.ts";
import { isMessageKey } from "../../common/messages/translate.ts";
import { topLevelEntries, withKeysAsWritten } from "../sources/record-text.ts";
import { DEFAULT_MAX_FIELD_LENGTH } from "../read-options.ts";
import type { RecordSource } from "../sources/record-sink.ts";
import { locate, type SourceFile } from "../sources/source-file.ts";
import { isCalendarDate } from "./calendar-date.ts";
import { SUBJECT_TEXT_FIELDS } from "../../core/render-page.ts";
import { FIELD_NAMES } from "./subject-fields.ts";
import { type Subject, type SubjectSchema, subjectSchemaOf } from "./subject-schema.ts";
import { subjectWarnings } from "./subject-warnings.ts";
import { LOWERCASE_WORD } from "./lowercase-word.ts";

const FIELD_COUNT = FIELD_NAMES.length;

let SCHEMA: SubjectSchema | undefined;

/**
 * The schema, made at the first record that is not plainly fine (quickSubject): zod (some 150 ms
 * to load) is loaded then, not by every build. Synchronously, so its CommonJS build: the parsers
 * hand records over in synchronous calls, in threads too. That is a zod of its own beside the one
 * the ES modules import (describe-api.ts, dataset-metadata.ts); the two never see each other's
 * schemas, and their messages are the schema's own keys.
 */
function subjectSchema(): SubjectSchema {
  return (SCHEMA ??= subjectSchemaOf(createRequire(import.meta.url)("zod") as typeof Zod));
}

/** The first lone surrogate of `text`, as 4 hex digits. */
function lone(text: string): string {
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c >= 0xd800 && c <= 0xdbff && i + 1 < text.length && (text.charCodeAt(i + 1) & 0xfc00) === 0xdc00) i++;
    else if (c >= 0xd800 && c <= 0xdfff) return c.toString(16);
  }
  return "";
}
/**
 * Whether `text` is `least` to `most` ASCII digits and nothing else (`/^[0-9]{11}$/` for an OIB,
 * `/^[0-9]{4,}$/` for a code): a loop, not a regex, for two fields of every record (the two
 * regex calls took 50–70 ms a million records, the loops 30–45).
 */
function isDigits(text: string, least: number, most: number): boolean {
  if (text.length < least || text.length > most) return false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}

/** Nesting deeper than this is reported as such (a subject's fields are flat values). */
export const MAX_DEPTH = 64;
const TEXT_FIELDS = ["jedinstvena_oznaka", "naziv_subjekta", "razina", "institucija_grad", "institucija_email"] as const;

/** How deep `value` nests (a flat value: 0), walked with a stack of its own. */
export function nestingDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [v, depth] = stack.pop() as [unknown, number];
    if (typeof v !== "object" || v === null) continue;
    if (depth + 1 > deepest) deepest = depth + 1;
    for (const item of Array.isArray(v) ? v : Object.values(v))
      if (typeof item === "object" && item !== null) stack.push([item, depth + 1]);
  }
  return deepest;
}

/** `an array nested 200,000 deep`, when `value` nests deeper than MAX_DEPTH. */
function tooDeep(value: unknown): Message | undefined {
  if (typeof value !== "object" || value === null) return undefined;
  const depth = nestingDepth(value);
  return depth > MAX_DEPTH ? msg("value.nested", { array: Array.isArray(value), depth }) : undefined;
}

function isFieldName(key: PropertyKey | undefined): key is keyof Subject {
  return typeof key === "string" && (FIELD_NAMES as readonly string[]).includes(key);
}

/**
 * The record as a Subject when it certainly passes `subjectSchema`, else undefined (then zod
 * decides and explains). It must never accept what the schema rejects; a property test in
 * test/data/rules/validate-subject.test.ts holds it to that. It builds a fresh object in field order,
 * so every subject has one shape whatever the key order in the file.
 */
export function quickSubject(value: unknown, keys?: number): Subject | undefined {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return undefined;
  const r = value as Record<string, unknown>;
  const {
    id,
    jedinstvena_oznaka,
    naziv_subjekta,
    oib,
    razina,
    datum_postanka,
    status_subjekta,
    odobreno,
    institucija_grad,
    institucija_email,
  } = r;
  if (
    typeof id !== "number" ||
    !Number.isSafeInteger(id) ||
    id < 1 ||
    typeof jedinstvena_oznaka !== "string" ||
    !isDigits(jedinstvena_oznaka, 4, Number.POSITIVE_INFINITY) ||
    typeof naziv_subjekta !== "string" ||
    naziv_subjekta.length === 0 ||
    typeof oib !== "string" ||
    !isDigits(oib, 11, 11) ||
    typeof razina !== "string" ||
    (razina !== "lokalna" && razina !== "nacionalna" && !LOWERCASE_WORD.test(razina)) ||
    typeof datum_postanka !== "string" ||
    !isCalendarDate(datum_postanka) ||
    typeof status_subjekta !== "boolean" ||
    typeof odobreno !== "boolean" ||
    typeof institucija_grad !== "string" ||
    typeof institucija_email !== "string"
  ) {
    return undefined;
  }
  // The ten fields are present; any other key is an unknown field (and one named twice is counted twice).
  if ((keys ?? Object.keys(r).length) !== FIELD_COUNT) return undefined;
  return {
    id,
    jedinstvena_oznaka,
    naziv_subjekta,
    oib,
    razina,
    datum_postanka,
    status_subjekta,
    odobreno,
    institucija_grad,
    institucija_email,
  };
}

/** A field's value as a problem shows it: a number as written when JSON.parse could not hold it exactly. */
function showField(input: unknown, field: string, position: number, source: RecordSource | undefined): string | Message {
  if (input === undefined) return msg("value.nothing");
  if (
    typeof input === "number" &&
    !Number.isSafeInteger(input) &&
    (!Number.isFinite(input) || Number.isInteger(input)) &&
    source?.text !== undefined
  ) {
    const written = topLevelEntries(source.text(position)).findLast((e) => e.key === field);
    if (written !== undefined) return showNumberText(written.raw);
  }
  return showValue(input);
}

/** The problems of a record zod rejected: one per field (its first issue), then unknown fields. */
function explain(
  issues: readonly Zod.core.$ZodIssue[],
  value: unknown,
  file: SourceFile,
  position: number,
  problems: ProblemSink,
  source: RecordSource | undefined,
): void {
  const where = locate(file, position);
  const seen = new Set<string>();
  for (const issue of issues) {
    const field = issue.path[0];
    if (issue.code === "unrecognized_keys") {
      for (const key of issue.keys) {
        const near = nearestName(key, FIELD_NAMES);
        problems.push({
          severity: "error",
          ...where,
          field: showKey(key),
          expected: msg("expected.field-name"),
          ...(near === undefined ? {} : { hint: msg("hint.did-you-mean", { name: near }) }),
        });
      }
    } else if (isFieldName(field)) {
      if (seen.has(field)) continue;
      seen.add(field);
      const input = (value as Record<string, unknown>)[field];
      const deep = tooDeep(input);
      if (deep !== undefined) {
        problems.push({
          severity: "error",
          ...where,
          field,
          value: deep,
          expected: msg("expected.flat-value"),
          hint: msg("hint.flat-fields"),
        });
        continue;
      }
      // A number too long to hold exactly (JSON.parse makes it Infinity; a CSV cell stays text) is shown as written.
      const csvDigits = file.kind === "csv" && field === "id" && typeof input === "string" && /^-?[0-9]+$/.test(input);
      const hint =
        (typeof input === "number" && !Number.isFinite(input)) || csvDigits
          ? msg("hint.too-many-digits")
          : hintFor(field, input, file.kind);
      const shown = csvDigits ? showNumberText(input) : showField(input, field, position, source);
      // The schema's messages are the catalogue's keys (subject-schema.ts).
      const expected = isMessageKey(issue.message) ? ({ key: issue.message } as Message) : msg("expected.schema", { text: issue.message });
      problems.push({ severity: "error", ...where, field, value: shown, expected, ...(hint === undefined ? {} : { hint }) });
    } else {
      const deep = tooDeep(value);
      problems.push({
        severity: "error",
        ...where,
        value: deep ?? showValue(value),
        expected: msg("expected.subject-object"),
        ...(deep === undefined ? {} : { hint: msg("hint.flat-fields") }),
      });
    }
  }
}

/** An unknown key as a problem names it: shortened when long (it is not a field name anyway). */
function showKey(key: string): string {
  return key.length > 60 ? `${key.slice(0, 59)}…` : key;
}

/** A problem for each field the record's text names twice (JSON.parse keeps the last value silently). */
function duplicateFields(
  value: unknown,
  file: SourceFile,
  position: number,
  problems: ProblemSink,
  source: RecordSource | undefined,
): boolean {
  if (source?.keys === undefined || source.text === undefined || typeof value !== "object" || value === null || Array.isArray(value))
    return false;
  if (Object.keys(value).length >= source.keys) return false;
  const first = new Map<string, string>();
  const reported = new Set<string>();
  const where = locate(file, position);
  for (const { key, raw } of topLevelEntries(source.text(position))) {
    const before = first.get(key);
    if (before === undefined) {
      first.set(key, raw);
    } else if (!reported.has(key)) {
      reported.add(key);
      problems.push({
        severity: "error",
        ...where,
        field: showKey(key),
        value: msg("value.twice", { before: showWritten(before), after: showWritten(raw) }),
        expected: msg("expected.field-once"),
        hint: msg("hint.json-last-value"),
      });
    }
  }
  return reported.size > 0;
}

/** A value's text as written, shortened. */
function showWritten(raw: string): string {
  const shown = /^-?[0-9]/.test(raw) ? showNumberText(raw) : raw;
  return typeof shown !== "string" ? `${raw.slice(0, 4)}…${raw.slice(-1)}` : shown.length > 28 ? `${shown.slice(0, 27)}…` : shown;
}

/** A problem for each text field longer than `maxLength` characters; true when there was one. */
function longFields(subject: Subject, maxLength: number, file: SourceFile, position: number, problems: ProblemSink): boolean {
  let found = false;
  for (const field of TEXT_FIELDS) {
    const length = subject[field].length;
    if (length <= maxLength) continue;
    found = true;
    problems.push({
      severity: "error",
      ...locate(file, position),
      field,
      value: msg("value.characters", { count: length }),
      expected: msg("expected.at-most-characters", { max: maxLength }),
      hint: msg("hint.max-field-length"),
    });
  }
  return found;
}

/**
 * Validates one parsed record, adding its problems (errors, and warnings — as errors when
 * `strict`) to `problems`; returns the subject when it has no error. `source` lets it find what
 * JSON.parse hid: a field named twice, a number as written.
 */
export function validateSubject(
  value: unknown,
  file: SourceFile,
  position: number,
  strict: boolean,
  problems: ProblemSink,
  maxFieldLength: number = DEFAULT_MAX_FIELD_LENGTH,
  source?: RecordSource,
): Subject | undefined {
  let subject = quickSubject(value, source?.keys);
  if (subject === undefined) {
    // A record that is not plainly fine: its keys as written, should JSON.parse have misread one (record-text.ts).
    if (source?.text !== undefined) value = withKeysAsWritten(value, source.text(position));
    const twice = duplicateFields(value, file, position, problems, source);
    const result = subjectSchema().safeParse(value);
    if (!result.success) {
      explain(result.error.issues, value, file, position, problems, source);
      return undefined;
    }
    if (twice) return undefined;
    subject = result.data;
  }
  if (longFields(subject, maxFieldLength, file, position, problems)) return undefined;
  // A lone surrogate (`"\ud800"` in JSON) is no character: DRF could not encode it, no page may carry it.
  let wellFormed = true;
  for (const field of SUBJECT_TEXT_FIELDS) {
    const text = subject[field];
    if (!(text as string & { isWellFormed(): boolean }).isWellFormed()) {
      wellFormed = false;
      problems.push({
        severity: "error",
        ...locate(file, position),
        field,
        value: showValue(text),
        expected: msg("expected.whole-characters"),
        hint: msg("hint.lone-surrogate", { hex: lone(text) }),
      });
    }
  }
  if (!wellFormed) return undefined;
  const warnings = subjectWarnings(subject);
  if (warnings.length === 0) return subject;
  const where = locate(file, position);
  // Named, so an accepted warning says whose it is (known-problems.ts).
  const named = { id: subject.id, name: subject.naziv_subjekta };
  for (const w of warnings) {
    problems.push({
      severity: strict ? "error" : "warning",
      ...where,
      field: w.field,
      value: showValue(w.value),
      expected: w.expected,
      ...(w.hint === undefined ? {} : { hint: w.hint }),
      subject: named,
    });
  }
  // Still returned under --strict, so the cross-record checks see it; the error fails the run anyway.
  return subject;
}
