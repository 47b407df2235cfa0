// Lints what no type check sees: regular expressions whose backtracking grows faster than their
// input (one such trim on a request froze a host for minutes). Only those rules: the plugin's
// recommended set is mostly style ([0-9] -> \d), and TypeScript's own checks stay with `tsc`.
import tsParser from "@typescript-eslint/parser";
import regexp from "eslint-plugin-regexp";

export default [
  { ignores: ["node_modules/", "dist/", "lib/", "test/", "data/"] },
  {
    files: ["src/**/*.{ts,js,mjs}", "scripts/**/*.{ts,js,mjs}", "bin/**/*.js"],
    languageOptions: { parser: tsParser, ecmaVersion: "latest", sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": ["error", { report: "potential" }],
      "regexp/no-super-linear-move": ["error", { report: "potential" }],
    },
  },
];
