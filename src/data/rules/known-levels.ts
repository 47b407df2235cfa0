/**
 * The levels the registry is known to use; `razina` is checked as a lowercase word first. A leaf of
 * its own: the schema names them in its description, the warnings check them.
 */
export const KNOWN_RAZINA: readonly string[] = ["lokalna", "nacionalna"];
