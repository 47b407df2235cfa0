/**
 * Everything the bench harness takes from the project's source and test helpers, in one place:
 * when a module moves, this file is the one to change.
 */
export { MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
export type { Manifest } from "../../src/core/manifest.ts";
export { route } from "../../src/core/route.ts";
export { answerFetch } from "../../src/core/answer-request.ts";
export { cdnSite, ManifestCache } from "../../src/core/cdn-site.ts";
export { forEachBounded } from "../../src/common/for-each-bounded.ts";
export { mulberry32 } from "../../src/common/seeded-random.ts";
export { forEachItem } from "../../src/common/stage-iterables.ts";
export { DataError } from "../../src/data/problems/problems.ts";
export { orderBlocks } from "../../src/data/order/order-blocks.ts";
export { readBlocks } from "../../src/data/read/read-blocks.ts";
export { resolveReadOptions } from "../../src/data/read-options.ts";
export { DEFAULT_OPTIONS } from "../../src/site/build-options.ts";
export { buildSite } from "../../src/site/build-site.ts";
export { startShardWriters } from "../../src/site/shard-writers.ts";
export { tempDir } from "../../test/file-trees.ts";
export { sendRaw } from "../../test/hosts/raw-http.ts";
export { startWranglerDev } from "../../test/hosts/wrangler-dev.ts";
