/**
 * Preloaded into a CLI process a test runs (`node --import ./test/feed/report-usage.mjs`): at
 * exit, however it exits, the process writes its own figures (peak RSS, wall time since it began)
 * to the file SUBJEKTI_TEST_USAGE names, so a bound is asserted from the child's measure, not a guess.
 *
 * The peak is this program's own: /proc/self/status's VmHWM, the high-water mark of the memory
 * mapped since exec. getrusage's maxRSS (process.resourceUsage) also keeps the forked copy's from
 * before exec, so a child spawned by a test process holding a large buffer (the gzip bomb's
 * gigabyte, before it is collected) reported the parent's size, not its own, on some kernels.
 * Other tests' children import peakRssBytes for the same figure.
 */
import { readFileSync, writeFileSync } from "node:fs";

const path = process.env["SUBJEKTI_TEST_USAGE"];

/** The peak RSS in bytes: VmHWM where /proc has it, else getrusage's (kibibytes). */
export function peakRssBytes() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync("/proc/self/status", "utf8"));
    if (hwm !== null) return Number(hwm[1]) * 1024;
  } catch {
    // No /proc (not Linux): getrusage's figure.
  }
  return process.resourceUsage().maxRSS * 1024;
}

if (path !== undefined) {
  process.on("exit", () => {
    // performance.now() counts from the process's start.
    writeFileSync(path, JSON.stringify({ maxRssBytes: peakRssBytes(), wallMs: performance.now() }));
  });
}
