import { describe, expect, it } from "vitest";
import { quietness } from "../../scripts/benchmarks-table.ts";
import { FIRST_LOOK_MS, type Look, machineWatch, POLL_MS, waitedNote, waitQuiet, type Watch } from "../../scripts/bench/wait-quiet.ts";

/**
 * A machine of the test's own: its clock moves only when the wait looks (by the look's length),
 * and `at(ms)` says what a look ending then sees. Nothing sleeps and the real load is never read.
 */
function machineOf(at: (ms: number) => Look): Watch & { clock: number; looks: number[]; said: string[] } {
  const fake = {
    clock: 0,
    looks: [] as number[],
    said: [] as string[],
    look(ms: number): Promise<Look> {
      fake.looks.push(ms);
      fake.clock += ms;
      return Promise.resolve(at(fake.clock));
    },
    now: () => fake.clock,
    say: (line: string) => void fake.said.push(line),
  };
  return fake;
}

describe("the bench's wait for a quiet machine", () => {
  it("0 means no wait: it does not look at all", async () => {
    const machine = machineOf(() => ({ load: 9, others: 2 }));
    expect(await waitQuiet(0, machine)).toEqual({ outcome: "not asked", seconds: 0 });
    expect(machine.looks).toEqual([]);
    expect(machine.said).toEqual([]);
  });

  it("starts after one short look on a quiet machine, saying nothing", async () => {
    const machine = machineOf(() => ({ load: 0.4, others: 0.01 }));
    expect(await waitQuiet(600, machine)).toMatchObject({ outcome: "quiet", seconds: 0 });
    expect(machine.looks).toEqual([FIRST_LOOK_MS]);
    expect(machine.said).toEqual([]);
  });

  it("waits while the load of the last run falls, then starts", async () => {
    // A 1-minute average falling from 3.5 with nothing running: under 2 after 60 ln(3.5/2) = 33.6 s.
    const machine = machineOf((ms) => ({ load: 3.5 * Math.exp(-ms / 60_000), others: 0.02 }));
    const waited = await waitQuiet(600, machine);
    // Looks at 1 s, then every 5 s: 6, 11, …, 36 s, the first under 2.
    expect(machine.looks).toEqual([FIRST_LOOK_MS, ...Array<number>(7).fill(POLL_MS)]);
    expect(waited).toMatchObject({ outcome: "quiet", seconds: 36 });
    expect(waited.look?.load).toBeLessThan(2);
    expect(machine.said).toEqual([
      "bench: waiting for a quiet machine (a 1-minute load under 2, others under 0.25 cores): load 3.44, others 0.02 cores; up to 600 s (--wait-quiet)",
      "bench: quiet after 36 s (load 1.92, others 0.02 cores): starting",
    ]);
    expect(waitedNote(waited)).toBe("- waited 36 s for a quiet machine (then load 1.92, others 0.02 cores)\n");
    // The row of a run started then is quiet, by the same rule.
    expect(quietness(waited.look?.load ?? NaN, waited.look?.others ?? null)).toBe("");
  });

  it("waits while another process keeps a core busy, whatever the load", async () => {
    const machine = machineOf((ms) => ({ load: 0.3, others: ms < 20_000 ? 1 : 0.1 }));
    expect(await waitQuiet(600, machine)).toMatchObject({ outcome: "quiet", seconds: 21 });
    expect(machine.said[0]).toContain("load 0.30, others 1.00 cores");
  });

  it("gives up at the limit, its last look cut to end there, and says the rows will not be quiet", async () => {
    const machine = machineOf(() => ({ load: 5, others: 0.9 }));
    const waited = await waitQuiet(13, machine);
    expect(waited).toMatchObject({ outcome: "gave up", seconds: 13 });
    expect(machine.looks).toEqual([FIRST_LOOK_MS, POLL_MS, POLL_MS, 2_000]);
    expect(machine.clock).toBe(13_000);
    expect(machine.said.at(-1)).toBe(
      "bench: not quiet after 13 s (load 5.00, others 0.90 cores): starting anyway; the rows will say (not quiet)",
    );
    expect(waitedNote(waited)).toBe("- not quiet after waiting 13 s (load 5.00, others 0.90 cores): run anyway\n");
    expect(quietness(waited.look?.load ?? NaN, waited.look?.others ?? null)).toBe(" (not quiet)");
  });

  it("does not wait where it cannot tell (no /proc/stat: others unknown)", async () => {
    const machine = machineOf(() => ({ load: 0.1, others: null }));
    expect(await waitQuiet(600, machine)).toMatchObject({ outcome: "unknown", seconds: 0 });
    expect(machine.looks).toEqual([FIRST_LOOK_MS]);
    expect(machine.said).toEqual(["bench: whether the machine is quiet cannot be told here (no /proc/stat): not waiting"]);
    expect(waitedNote({ outcome: "unknown", seconds: 0, look: { load: 0.1, others: null } })).toBe("");
  });

  it("this machine's look reads the load and, on Linux, the others' cores over the look", async () => {
    const look = await machineWatch.look(20);
    expect(look.load).toBeGreaterThanOrEqual(0);
    if (process.platform === "linux") expect(look.others).toBeGreaterThanOrEqual(0);
    else expect(look.others).toBeNull();
  });
});
