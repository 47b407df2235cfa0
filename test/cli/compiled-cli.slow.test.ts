/**
 * The CLI as it ships: `tsc -p tsconfig.build.json` emits lib/ (into a temporary package, so the
 * test never runs a stale lib/ and never writes the repo's), and bin/subjekti.js runs it with
 * plain Node and a node_modules without tsx: `--help` works, and a small build (record threads
 * and shard writers included) writes the same bytes as the TypeScript sources run in-process.
 */
import { execFile } from "node:child_process";
import { copyFile, mkdir, readdir, readFile, rm, symlink, utimes, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli.ts";
import { snapshotTree, tempDir } from "../file-trees.ts";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");
const BUILD_ARGS = [
  "build",
  "--data",
  join(ROOT, "test/fixtures/small-site"),
  "--base-url",
  "https://subjekti.example",
  "--no-cache",
  "--quiet",
  "--threads",
  "1",
];

let work: string;
let pkg: string;

/** `node <pkg>/bin/subjekti.js <args>` from a directory outside the repository, the data's date fixed as runCli fixes it; never rejects. */
async function subjekti(
  args: readonly string[],
  bin = join(pkg, "bin/subjekti.js"),
): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [bin, ...args], {
      cwd: work,
      encoding: "utf8",
      env: { ...process.env, SOURCE_DATE_EPOCH: "1700000000" },
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

beforeAll(async () => {
  work = await tempDir("subjekti-compiled-");
  pkg = join(work, "package");
  await run(process.execPath, [
    join(ROOT, "node_modules/typescript/bin/tsc"),
    "-p",
    join(ROOT, "tsconfig.build.json"),
    "--outDir",
    join(pkg, "lib"),
  ]);
  await mkdir(join(pkg, "bin"));
  for (const file of await readdir(join(ROOT, "bin"))) await copyFile(join(ROOT, "bin", file), join(pkg, "bin", file));
  // package.json makes lib/*.js ES modules, as in the installed package.
  await copyFile(join(ROOT, "package.json"), join(pkg, "package.json"));
  // Every installed package but tsx: anything in lib/ that still needed a TypeScript loader fails.
  await mkdir(join(pkg, "node_modules"));
  for (const name of await readdir(join(ROOT, "node_modules"))) {
    if (name !== "tsx" && name !== ".bin") await symlink(join(ROOT, "node_modules", name), join(pkg, "node_modules", name));
  }
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe("the compiled CLI (bin/subjekti.js over lib/)", () => {
  it("lib/ holds JavaScript only, the thread entries beside what they load, and no edge function", async () => {
    const lib = await readdir(join(pkg, "lib"), { recursive: true });
    expect(lib.filter((name) => name.endsWith(".ts"))).toEqual([]);
    expect(lib).toEqual(
      expect.arrayContaining([
        "cli/main.js",
        "threads/module-thread.mjs",
        "data/read/render-block.js",
        "site/search/search-thread.js",
        "site/shard-writer-thread.mjs",
        "threads/pool-thread.mjs",
      ]),
    );
    expect(lib.filter((name) => name.startsWith("edge"))).toEqual([]);
    // Every plain module copied as it is, one with a declaration file beside it too (tsconfig.build.json names those alone).
    const plain = (await readdir(join(ROOT, "src"), { recursive: true })).filter(
      (name) => name.endsWith(".mjs") && !name.startsWith("edge"),
    );
    expect(plain).toContain("threads/thread-priority.mjs");
    expect(lib).toEqual(expect.arrayContaining(plain));
  });

  it("--help exits 0 with the usage, as the sources print it", async () => {
    const compiled = await subjekti(["--help"]);
    expect(compiled).toMatchObject({ code: 0, stderr: "" });
    expect(compiled.stdout).toMatch(/^Usage: subjekti /);
    expect(compiled.stdout).toBe((await runCli(["--help"])).stdout);
  });

  it("a usage error exits 2 with its line, the usage line and the hint, not the help: as the sources say it, in Croatian", async () => {
    const args = ["--lang", "hr", "build", "--threads", "x"];
    const compiled = await subjekti(args);
    expect(compiled).toEqual({
      code: 2,
      stdout: "",
      stderr:
        `greška: vrijednost 'x' opcije '--threads <n>' nije ispravna: očekuje se pozitivan cijeli broj, a zadano je "x"\n` +
        "Uporaba: subjekti build [options]\n" +
        "Za više informacija pokušajte 'subjekti build --help'.\n",
    });
    expect(compiled).toEqual(await runCli(args));
  });

  it("builds the small site (one record thread, the search in its thread) byte for byte as the sources do", async () => {
    const [compiledOut, sourceOut] = [join(work, "compiled-site"), join(work, "source-site")];
    const built = await subjekti([...BUILD_ARGS, "--out", compiledOut]);
    // The fixture declares no licence: the one warning the build gives for it.
    expect({ ...built, stderr: built.stderr.replace(/^subjekti: warning: no licence is declared.*\n/m, "") }).toMatchObject({
      code: 0,
      stderr: "",
    });
    expect(built.stdout).toMatch(/^built 47 subjects into /);
    expect((await runCli([...BUILD_ARGS, "--out", sourceOut])).code).toBe(0);
    const compiled = await snapshotTree(compiledOut);
    expect(Object.keys(compiled).length).toBeGreaterThan(10);
    expect(compiled).toEqual(await snapshotTree(sourceOut));
  });

  it("without lib/, says what to run (exit 1)", async () => {
    const bare = join(work, "bare");
    await mkdir(join(bare, "bin"), { recursive: true });
    await copyFile(join(ROOT, "bin/subjekti.js"), join(bare, "bin/subjekti.js"));
    await copyFile(join(ROOT, "package.json"), join(bare, "package.json"));
    expect(await subjekti(["--help"], join(bare, "bin/subjekti.js"))).toEqual({
      code: 1,
      stdout: "",
      stderr: "subjekti: lib/ is missing (the compiled CLI): run `npm run compile` in the package's directory\n",
    });
  });

  describe("start-up loads only what the run uses (lazy commands, zod only where records are read)", () => {
    /** The package's modules (paths under lib/ or node_modules/) that `subjekti <args>` loaded, from a resolve hook and the require cache. */
    async function modulesLoaded(args: readonly string[]): Promise<{ code: number; modules: string[] }> {
      const hook = join(work, "log-modules.mjs");
      const log = join(work, `modules-${args.join("_")}.txt`);
      await writeFile(
        hook,
        `import { appendFileSync } from "node:fs";\nexport async function resolve(specifier, context, next) {\n  const resolved = await next(specifier, context);\n  appendFileSync(${JSON.stringify(log)}, resolved.url + "\\n");\n  return resolved;\n}\n`,
      );
      // CommonJS modules (zod's for a record that is not plainly fine: validate-subject.ts) pass no resolve hook: the
      // main thread's require cache at exit names them.
      const register =
        `import { createRequire, register } from "node:module"; import { appendFileSync } from "node:fs"; register(${JSON.stringify(`file://${hook}`)});\n` +
        `process.on("exit", () => appendFileSync(${JSON.stringify(log)}, Object.keys(createRequire(${JSON.stringify(`${pkg}/`)}).cache).map((path) => "file://" + path + "\\n").join("")));`;
      let code = 0;
      try {
        await run(
          process.execPath,
          ["--import", `data:text/javascript,${encodeURIComponent(register)}`, join(pkg, "bin/subjekti.js"), ...args],
          { cwd: work },
        );
      } catch (error) {
        code = (error as { code: number }).code;
      }
      const urls = (await readFile(log, "utf8")).trim().split("\n");
      // The package's node_modules are links to the checkout's: a package is named by its folder.
      const named = (url: string): string | null => {
        const dependency = /\/node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(url);
        if (dependency !== null) return `node_modules/${dependency[1]}`;
        return url.startsWith(`file://${pkg}/`) ? url.slice(`file://${pkg}/`.length) : null;
      };
      const modules = [...new Set(urls.map(named).filter((name) => name !== null))];
      return { code, modules: modules.sort() };
    }

    it("--help, -h, help, --version and -V alone: the help snapshot and the version, nothing else (not commander)", async () => {
      for (const args of [["--help"], ["-h"], ["help"], ["--version"], ["-V"]]) {
        const { code, modules } = await modulesLoaded(args);
        expect(code, args[0]).toBe(0);
        expect(modules, args[0]).toEqual(["bin/subjekti.js", "lib/cli/help-text.js", "lib/core/version.js"]);
      }
    });

    it("a command's help: commander and that command's file with its option list; no zod, no reader, no build, no router", async () => {
      const { code, modules } = await modulesLoaded(["build", "--help"]);
      expect(code).toBe(0);
      expect(modules).toContain("lib/cli/build.js");
      expect(modules).toContain("node_modules/commander");
      expect(modules.filter((m) => m.startsWith("node_modules/"))).toEqual(["node_modules/commander"]);
      expect(modules.filter((m) => /^lib\/cli\/(validate|export|preview|check|sync|serve|nginx)\.js$/.test(m))).toEqual([]);
      expect(modules.filter((m) => /^lib\/(site\/build-site|data\/(order|problems\/problems)|core\/route|nginx)/.test(m))).toEqual([]);
    });

    it("a usage error of build: build's file alone of the commands, and no zod", async () => {
      const { code, modules } = await modulesLoaded(["build", "--limits", "x"]);
      expect(code).toBe(2);
      expect(modules.filter((m) => /^lib\/cli\/(validate|export|preview|check|sync|serve|nginx)\.js$/.test(m))).toEqual([]);
      expect(modules).not.toContain("node_modules/zod");
    });

    /** The readers and the rules a build loads only where its data needs them. */
    const ON_DEMAND = ["node_modules/zod", "node_modules/csv-parse", "node_modules/yauzl", "node_modules/saxes"];

    it("a build of JSON records all plainly fine, with a valid descriptor: no zod, no CSV or spreadsheet reader (their data does load them)", async () => {
      const data = join(work, "plain-json");
      await mkdir(data);
      await copyFile(join(ROOT, "test/fixtures/small-site/a-first.json"), join(data, "a-first.json"));
      await copyFile(join(ROOT, "data/datapackage.json"), join(data, "datapackage.json"));
      // Paths relative to `work` (the runs' directory): the log's name is made of the arguments.
      const plain = await modulesLoaded(["build", "--data", "plain-json", "--out", "plain-json-site", "--no-cache", "--quiet"]);
      expect(plain.code).toBe(0);
      expect(plain.modules).toContain("lib/site/build-site.js");
      expect(plain.modules.filter((m) => ON_DEMAND.includes(m))).toEqual([]);
      // The same hook sees them where the data needs them: a CSV source, a record zod must judge.
      await copyFile(join(ROOT, "test/fixtures/small-site/c-last.csv"), join(data, "c-last.csv"));
      await writeFile(join(data, "d-bad.json"), JSON.stringify([{ id: 999, oib: "123" }]));
      const needed = await modulesLoaded(["build", "--data", "plain-json", "--out", "needed-site", "--no-cache", "--quiet"]);
      expect(needed.code).toBe(1);
      expect(needed.modules).toEqual(expect.arrayContaining(["node_modules/zod", "node_modules/csv-parse"]));
    });
  });

  it("in a checkout, a source edited after lib/ was compiled, two folders down too -> a command warns to compile (the edge function's and other files' edits aside; not the top-level --version)", async () => {
    // A command (its help is enough: it runs lib/cli/main.js); the top-level --help and --version read no source.
    const COMMAND = ["validate", "--help"];
    const stale = "subjekti: warning: src/ was edited after lib/ was compiled, and lib/ is what runs: `npm run compile` first\n";
    await mkdir(join(pkg, "src/site"), { recursive: true });
    await mkdir(join(pkg, "src/cli"), { recursive: true });
    await mkdir(join(pkg, "src/edge"), { recursive: true });
    await mkdir(join(pkg, "src/core/search"), { recursive: true });
    const [before, after] = [new Date(Date.now() - 3_600_000), new Date(Date.now() + 3_600_000)];
    const deep = "src/core/search/match-record.ts";
    for (const file of ["src/cli/main.ts", "src/site/build-site.ts", deep, "src/edge/subjekti.ts", "src/core/notes.md"]) {
      await writeFile(join(pkg, file), "");
      await utimes(join(pkg, file), before, before);
    }
    try {
      expect(await subjekti(COMMAND)).toMatchObject({ code: 0, stderr: "" });
      await utimes(join(pkg, "src/edge/subjekti.ts"), after, after);
      await utimes(join(pkg, "src/core/notes.md"), after, after);
      expect(await subjekti(COMMAND)).toMatchObject({ code: 0, stderr: "" });
      // An edit in place changes the file's time alone, not its folder's: the check reads the file's.
      await utimes(join(pkg, deep), after, after);
      expect(await subjekti(COMMAND)).toMatchObject({ code: 0, stderr: stale });
      expect(await subjekti(["--version"])).toMatchObject({ code: 0, stdout: "0.1.0\n", stderr: "" });
      await utimes(join(pkg, deep), before, before);
      expect(await subjekti(COMMAND)).toMatchObject({ code: 0, stderr: "" });
      await utimes(join(pkg, "src/site/build-site.ts"), after, after);
      expect(await subjekti(COMMAND)).toMatchObject({ code: 0, stderr: stale });
    } finally {
      await rm(join(pkg, "src"), { recursive: true, force: true });
    }
  });
});
