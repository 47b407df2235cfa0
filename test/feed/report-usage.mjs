/**
 * Preloaded into a CLI process a test runs (`node --import ./test/feed/report-usage.mjs`): at
 * exit, however it exits, the process writes its own figures (peak RSS, wall time since it began)
 * to the file SUBJEKTI_TEST_USAGE names, so a bound is asserted from the child's measure, not a guess.
 */
import { writeFileSync } from "node:fs";

const path = process.env["SUBJEKTI_TEST_USAGE"];
if (path !== undefined) {
  process.on("exit", () => {
    // maxRSS is in kibibytes; performance.now() counts from the process's start.
    writeFileSync(path, JSON.stringify({ maxRssBytes: process.resourceUsage().maxRSS * 1024, wallMs: performance.now() }));
  });
}
