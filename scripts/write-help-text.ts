/**
 * `npm run help-text`: writes src/cli/help-text.ts, the top-level `subjekti --help` as commander
 * prints it (main(["--help"]) in-process, 80 columns as main.ts fixes them). bin/subjekti.js answers
 * `--help` and `--version` alone from it without loading commander and the eight command files;
 * test/cli/help-text.test.ts fails when a command's summary changed and this was not re-run.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { helpOf } from "./help-of.ts";

const help = await helpOf(["--help"]);
const file = resolve(import.meta.dirname, "../src/cli/help-text.ts");
writeFileSync(
  file,
  `// Written by \`npm run help-text\` (scripts/write-help-text.ts) from commander's own output; do not edit.\n` +
    `// bin/subjekti.js answers \`--help\` and \`--version\` alone from here, without commander and the command files.\n` +
    `export { VERSION } from "../core/version.ts";\n\n` +
    `/** \`subjekti --help\`, as main(["--help"]) prints it. */\n` +
    `export const HELP = ${JSON.stringify(help)};\n`,
);
console.log(`wrote ${file}`);
