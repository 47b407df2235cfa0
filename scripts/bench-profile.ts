/**
 * Where a build's time goes, from a V8 CPU profile: self time by function and inclusive time of
 * the project's own functions (src/), as text, so a profile can be read without DevTools.
 *
 *   node --cpu-prof --cpu-prof-dir .bench/prof --import tsx src/cli/main.ts build --data <set> --out <tmp> --quiet
 *   tsx scripts/bench-profile.ts .bench/prof/CPU.*.cpuprofile [--top 30]
 *
 * With `--import tsx` Node writes two profiles (the main thread and tsx's loader thread); the
 * script reports each file it is given, largest sample count first.
 */
import { readFile } from "node:fs/promises";
import { Command } from "commander";

interface ProfileNode {
  readonly id: number;
  readonly callFrame: { readonly functionName: string; readonly url: string; readonly lineNumber: number };
  readonly children?: readonly number[];
}

interface CpuProfile {
  readonly nodes: readonly ProfileNode[];
  readonly samples: readonly number[];
  readonly timeDeltas: readonly number[];
}

function frameName(node: ProfileNode): string {
  const { functionName, url, lineNumber } = node.callFrame;
  const file = url.replace(/^file:\/\//, "").replace(/^.*?\/(src|scripts|node_modules)\//, "$1/");
  return `${functionName || "(anonymous)"}${file === "" ? "" : ` ${file}:${lineNumber + 1}`}`;
}

/** Self and inclusive microseconds per function name of one profile. */
function summarise(profile: CpuProfile): { total: number; self: Map<string, number>; inclusive: Map<string, number> } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const sampled = new Map<number, number>();
  profile.samples.forEach((id, i) => sampled.set(id, (sampled.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
  const self = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let total = 0;
  for (const [id, micros] of sampled) {
    total += micros;
    const node = byId.get(id);
    if (node === undefined) continue;
    self.set(frameName(node), (self.get(frameName(node)) ?? 0) + micros);
    // Each function counts once per sample even when it recurses.
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const frame = byId.get(at);
      if (frame === undefined) break;
      const name = frameName(frame);
      if (seen.has(name)) continue;
      seen.add(name);
      inclusive.set(name, (inclusive.get(name) ?? 0) + micros);
    }
  }
  return { total, self, inclusive };
}

function table(entries: Map<string, number>, total: number, top: number, keep: (name: string) => boolean = () => true): string {
  return [...entries]
    .filter(([name]) => keep(name))
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, micros]) => `${(micros / 1000).toFixed(0).padStart(8)} ms ${((100 * micros) / total).toFixed(1).padStart(5)}%  ${name}`)
    .join("\n");
}

const program = new Command("bench-profile")
  .argument("<profiles...>", ".cpuprofile files")
  .option("--top <n>", "rows per table", (text) => Number(text), 30)
  .parse(process.argv);
const top = program.opts<{ top: number }>().top;
const profiles = await Promise.all(
  program.args.map(async (path) => ({ path, profile: JSON.parse(await readFile(path, "utf8")) as CpuProfile })),
);
profiles.sort((a, b) => b.profile.samples.length - a.profile.samples.length);
for (const { path, profile } of profiles) {
  const { total, self, inclusive } = summarise(profile);
  process.stdout.write(
    `# ${path}: ${(total / 1e6).toFixed(2)} s sampled\n\n## self time\n${table(self, total, top)}\n\n` +
      `## inclusive time, src/ only\n${table(inclusive, total, top, (name) => name.includes(" src/"))}\n\n`,
  );
}
