/**
 * Before a measure starts, the harness waits until the machine is quiet by the rule the rows are
 * marked with (benchmarks-table.ts `isQuiet`: the 1-minute load under 2, other processes' CPU
 * under a quarter of a core). A measure started right after another starts at the other's own
 * load (a build keeps more threads runnable than the two cores, and the 1-minute average takes a
 * minute or more to fall back under 2), so its rows said "(not quiet)" though nothing else ran;
 * by hand one waited between them. The wait has a limit (`--wait-quiet <s>`, 0: none), after which
 * the measure runs anyway and its rows say "(not quiet)" as before.
 *
 * Only at a measure's start: inside one, the builds run one after another on purpose (in turn, so
 * that each side meets the same conditions), the load between them is their own, and a row's mark
 * asks the load at the start alone; a pause between them would change what they measure (on this
 * virtual machine memory freed seconds before a build is cheaper to touch than memory free for
 * longer: docs/search.md, "What the machine charges a build").
 *
 * The waiting is `waitQuiet` over a `Watch` (what the machine does over the next few seconds, a
 * clock, a printer), so a test gives it a machine and a clock of its own and sleeps not at all.
 */
import { loadavg } from "node:os";
import { performance } from "node:perf_hooks";
import { setTimeout as sleep } from "node:timers/promises";
import { isQuiet, machineWork, othersCores, QUIET_LOAD, QUIET_OTHERS } from "../benchmarks-table.ts";
import { log } from "./parts.ts";

/** The machine as one look saw it: the 1-minute load at its end, and the cores other processes kept busy through it (null: not known). */
export type Look = { readonly load: number; readonly others: number | null };

/** What the wait reads and where it says so: the machine over the next `ms` milliseconds, a clock in milliseconds, a line printed. */
export type Watch = { look(ms: number): Promise<Look>; now(): number; say(line: string): void };

/**
 * How the wait ended: `not asked` (a limit of 0), `quiet` (at the first look, or after `seconds`
 * of waiting), `gave up` (not quiet at the limit), `unknown` (no /proc to tell from).
 */
export type Waited = { readonly outcome: "not asked" | "quiet" | "gave up" | "unknown"; readonly seconds: number; readonly look?: Look };

/** The first look's length (long enough for a core's busy time to show in /proc/stat's ticks), then one look every few seconds. */
export const FIRST_LOOK_MS = 1_000;
export const POLL_MS = 5_000;

const shown = (look: Look): string =>
  `load ${look.load.toFixed(2)}, others ${look.others === null ? "unknown" : `${look.others.toFixed(2)} cores`}`;

/** Waits until a look finds the machine quiet, or `limitSeconds` have passed (0: does not look at all). */
export async function waitQuiet(limitSeconds: number, watch: Watch): Promise<Waited> {
  if (!(limitSeconds > 0)) return { outcome: "not asked", seconds: 0 };
  const limit = limitSeconds * 1000;
  const started = watch.now();
  const elapsed = (): number => watch.now() - started;
  let look = await watch.look(Math.min(FIRST_LOOK_MS, limit));
  if (look.others === null) {
    watch.say("bench: whether the machine is quiet cannot be told here (no /proc/stat): not waiting");
    return { outcome: "unknown", seconds: 0, look };
  }
  if (isQuiet(look.load, look.others)) return { outcome: "quiet", seconds: 0, look };
  watch.say(
    `bench: waiting for a quiet machine (a 1-minute load under ${QUIET_LOAD}, others under ${QUIET_OTHERS} cores): ` +
      `${shown(look)}; up to ${limitSeconds} s (--wait-quiet)`,
  );
  for (;;) {
    const seconds = Math.round(elapsed() / 1000);
    if (elapsed() >= limit) {
      watch.say(`bench: not quiet after ${seconds} s (${shown(look)}): starting anyway; the rows will say (not quiet)`);
      return { outcome: "gave up", seconds, look };
    }
    look = await watch.look(Math.min(POLL_MS, limit - elapsed()));
    if (isQuiet(look.load, look.others)) {
      const waited = Math.max(1, Math.round(elapsed() / 1000));
      watch.say(`bench: quiet after ${waited} s (${shown(look)}): starting`);
      return { outcome: "quiet", seconds: waited, look };
    }
  }
}

/** This machine: /proc/stat and /proc/self/stat before and after each look (benchmarks-table.ts `machineWork`), the load from /proc/loadavg. */
export const machineWatch: Watch = {
  async look(ms) {
    const start = machineWork();
    await sleep(ms);
    const end = machineWork();
    return { load: end?.load ?? loadavg()[0] ?? 0, others: othersCores(start, end) };
  },
  now: () => performance.now(),
  say: log,
};

/** The line a run's printed output gets when it waited (none when the machine was quiet at once or no wait was asked). */
export function waitedNote(waited: Waited): string {
  if (waited.look === undefined || (waited.outcome !== "gave up" && waited.seconds === 0)) return "";
  return waited.outcome === "quiet"
    ? `- waited ${waited.seconds} s for a quiet machine (then ${shown(waited.look)})\n`
    : `- not quiet after waiting ${waited.seconds} s (${shown(waited.look)}): run anyway\n`;
}
