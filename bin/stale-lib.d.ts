/** bin/stale-lib.js's one export, for the tests that import it (test/cli-entry.ts). */
export declare function libOlderThanSources(root: string): boolean;
