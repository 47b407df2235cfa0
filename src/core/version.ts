/** The version of subjekti; a test keeps it equal to package.json's (the edge bundle cannot read that file). */
export const VERSION = "0.1.0";
