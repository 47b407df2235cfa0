/**
 * The subject's field names, for the many modules that need the names and not the rules: the
 * schema (subject-schema.ts) loads zod, which a build of plainly fine records never needs
 * (validate-subject.ts). The schema's own keys are these, in this order (test/data/rules/validate-subject.test.ts).
 */
import { SUBJECT_FIELDS } from "../../core/render-page.ts";
import type { Subject } from "./subject-schema.ts";

/** The ten field names, in the schema's (and the output's) order. */
export const FIELD_NAMES: readonly (keyof Subject)[] = SUBJECT_FIELDS;

/** The fields no two subjects share (the build checks it across records; a schema of one record cannot say it). */
export const UNIQUE_FIELDS: readonly (keyof Subject)[] = ["id", "jedinstvena_oznaka"];
