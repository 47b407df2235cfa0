// Lints what no type check sees. Two kinds of rules only, each for a failure we had or nearly had:
// - regular expressions whose backtracking grows faster than their input (one such trim on a
//   request froze a host for minutes); the plugin's recommended set is mostly style ([0-9] -> \d).
// - promises nobody awaits or handles (a rejected write that vanishes, a stage left running), and
//   promises passed where a plain value or a void callback is expected (an async listener whose
//   rejection no emitter handles): typescript-eslint's two type-checked rules for them, on the
//   TypeScript files the type checker sees (tsconfig.json).
// TypeScript's own checks stay with `tsc`.
import tsParser from "@typescript-eslint/parser";
import tsPlugin from "@typescript-eslint/eslint-plugin";
import regexp from "eslint-plugin-regexp";

export default [
  { ignores: ["node_modules/", "dist/", "lib/", "data/"] },
  {
    files: ["src/**/*.{ts,js,mjs}", "scripts/**/*.{ts,js,mjs}", "bin/**/*.js", "test/architecture/*-imports.ts"],
    languageOptions: { parser: tsParser, ecmaVersion: "latest", sourceType: "module" },
    linterOptions: { reportUnusedDisableDirectives: "error" },
    plugins: { regexp },
    rules: {
      "regexp/no-super-linear-backtracking": ["error", { report: "potential" }],
      "regexp/no-super-linear-move": ["error", { report: "potential" }],
    },
  },
  {
    // Tests too: an `expect(…).rejects` nobody awaits is a test that cannot fail.
    files: ["src/**/*.ts", "scripts/**/*.ts", "test/**/*.ts"],
    languageOptions: { parser: tsParser, parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    plugins: { "@typescript-eslint": tsPlugin },
    rules: {
      "@typescript-eslint/no-floating-promises": "error",
      "@typescript-eslint/no-misused-promises": "error",
    },
  },
];
