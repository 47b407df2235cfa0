/**
 * `npm run api-schemas`: writes src/site/docs/api-schemas-json.ts, the JSON Schemas zod makes of the
 * API's answers (src/site/docs/api-schemas.ts), which describe-api.ts publishes from there without
 * loading zod; test/site/docs/describe-api.test.ts fails when a schema changed and this was not re-run.
 */
import { writeFileSync } from "node:fs";
import { resolve } from "node:path";
import { format, resolveConfig } from "prettier";
import { apiSchemas } from "../src/site/docs/api-schemas.ts";

const file = resolve(import.meta.dirname, "../src/site/docs/api-schemas-json.ts");
const text =
  `// Written by \`npm run api-schemas\` (scripts/write-api-schemas.ts) from zod's own output; do not edit.\n` +
  `// describe-api.ts publishes the API's schemas from here, without loading zod.\n\n` +
  `/** apiSchemas() of api-schemas.ts, as JSON. */\n` +
  `export const API_SCHEMAS_JSON = ${JSON.stringify(JSON.stringify(apiSchemas()))};\n`;
// As the repository's formatter writes it, so that its check passes on the file as written.
writeFileSync(file, await format(text, { ...(await resolveConfig(file)), filepath: file }));
console.log(`wrote ${file}`);
