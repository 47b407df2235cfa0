/** The version of subjekti; a test keeps it equal to package.json's (the edge bundle cannot read that file). */
export const VERSION = "0.1.0";

/**
 * The layout of a site's files this code reads and writes (written in the manifest); a site of
 * another layout must be rebuilt. Beside VERSION, which every shard's hash names with it.
 */
export const LAYOUT_VERSION = 11;
