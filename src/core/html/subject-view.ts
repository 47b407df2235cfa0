/**
 * A subject as the pages for people read it: the ten fields of its JSON detail, checked, and the
 * path of its page. A leaf, so every page imports it without a chain.
 */
import { type Subject, SUBJECT_TEXT_FIELDS } from "../render-page.ts";

/** A subject as its JSON detail holds it: the ten fields (render-page.ts). */
export type SubjectView = Subject;

/** The subject a record's JSON holds, or null when it is not one. */
export function readSubject(value: unknown): SubjectView | null {
  if (typeof value !== "object" || value === null) return null;
  const r = value as Record<string, unknown>;
  if (!Number.isSafeInteger(r["id"])) return null;
  if (!SUBJECT_TEXT_FIELDS.every((field) => typeof r[field] === "string")) return null;
  if (typeof r["status_subjekta"] !== "boolean" || typeof r["odobreno"] !== "boolean") return null;
  return value as SubjectView;
}

/** The path of a subject's page. */
export function subjectPagePath(id: number | bigint): string {
  return `/subjekti/${id}/`;
}
