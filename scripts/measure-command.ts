/** A node process measured to its end, for the bench scripts: wall time and peak memory. */
import { spawn } from "node:child_process";
import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { join } from "node:path";
import { performance } from "node:perf_hooks";

const TIME = "/usr/bin/time";

export interface Measured {
  readonly seconds: number;
  /** Peak resident set size of the child, MB. */
  readonly rssMb: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs `node <args>` to the end: wall time from here, peak RSS from GNU time's %M when present,
 * else from polling /proc/<pid>/status (VmHWM, the kernel's own high-water mark).
 */
export async function measureCommand(args: readonly string[], cwd: string, tmp: string): Promise<Measured> {
  const hasTime = existsSync(TIME);
  const timeFile = join(tmp, `time-${process.pid}.txt`);
  const command = hasTime ? TIME : process.execPath;
  const commandArgs = hasTime ? ["-f", "%M", "-o", timeFile, process.execPath, ...args] : [...args];
  const started = performance.now();
  const child = spawn(command, commandArgs, { cwd, stdio: ["ignore", "pipe", "pipe"] });
  let stdout = "";
  let stderr = "";
  child.stdout.setEncoding("utf8").on("data", (text: string) => (stdout += text));
  child.stderr.setEncoding("utf8").on("data", (text: string) => (stderr += text));
  let polledKb = 0;
  const poll = hasTime
    ? undefined
    : setInterval(() => {
        void readFile(`/proc/${child.pid}/status`, "utf8").then(
          (status) => (polledKb = Math.max(polledKb, Number(/VmHWM:\s+(\d+)/.exec(status)?.[1] ?? 0))),
          () => undefined,
        );
      }, 20);
  const code = await new Promise<number | null>((resolve) => child.once("close", resolve));
  const seconds = (performance.now() - started) / 1000;
  if (poll !== undefined) clearInterval(poll);
  if (code !== 0) throw new Error(`node ${args.join(" ")} exited with ${code}:\n${stderr.slice(-2000)}`);
  const kb = hasTime ? Number((await readFile(timeFile, "utf8")).trim().split("\n").at(-1)) : polledKb;
  return { seconds, rssMb: kb / 1024, stdout, stderr };
}
