/**
 * The longest a text field may be, in characters, unless the maintainer sets another
 * (`--max-field-length`): institution names run to a few hundred characters, a contact field to
 * a few addresses. A longer value is an error, not a page of megabytes. A leaf of its own so that
 * the CLI's option list reads it without loading the validator (and zod).
 */
export const DEFAULT_MAX_FIELD_LENGTH = 2000;
