/** Why the patch of an edit does not apply (patch-search.ts): the whole stage runs instead, the reason a test can see. */
export class NoPatch extends Error {}
