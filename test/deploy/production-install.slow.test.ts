/**
 * A production install as docs/production.md gives it, on this machine for real: the package packed
 * (lib/ compiled into a temporary copy, never the repo's), installed into an empty directory with
 * `npm install --omit=dev`, the sample built with the installed CLI, and `subjekti serve` started by
 * the very command line of the systemd unit the package ships (its paths moved into the temp
 * directory): the printed URL answers, the API answers its Host, the access log and the refused-Host
 * line are written. And `npm ci --omit=dev` in a checkout succeeds without TypeScript.
 *
 * The installed node_modules' size is printed (the figure docs/production.md quotes).
 */
import { type ChildProcess, execFile, spawn, spawnSync } from "node:child_process";
import { cp, mkdir, readdir, readFile, rm, stat, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tempDir } from "../file-trees.ts";
import { firstLine, freePort, stopChild } from "../hosts/hosts.ts";
import { sendRaw } from "../hosts/raw-http.ts";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");
const NPM_FLAGS = ["--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"];

let work: string;
let app: string;
let serve: ChildProcess | undefined;

/** npm (as the npm that runs the tests: on PATH) in `cwd`. */
async function npm(cwd: string, args: readonly string[]): Promise<{ stdout: string; stderr: string }> {
  return run("npm", [...args], {
    cwd,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    env: { ...process.env, npm_config_update_notifier: "false" },
  });
}

beforeAll(async () => {
  work = await tempDir("subjekti-production-");
  // The package as `npm pack` makes it in a checkout, with lib/ compiled here rather than in the repo.
  const pkg = join(work, "package");
  await mkdir(pkg);
  for (const name of ["package.json", "README.md", "LICENSE", "BENCHMARKS.md", "bin", "deploy", "docs"])
    await cp(join(ROOT, name), join(pkg, name), { recursive: true });
  await run(process.execPath, [
    join(ROOT, "node_modules/typescript/bin/tsc"),
    "-p",
    join(ROOT, "tsconfig.build.json"),
    "--outDir",
    join(pkg, "lib"),
  ]);
  const packed = await npm(pkg, ["pack", "--ignore-scripts", "--pack-destination", work, ...NPM_FLAGS]);
  const tarball = join(work, packed.stdout.trim().split("\n").at(-1) as string);
  app = join(work, "srv");
  await mkdir(app);
  await writeFile(join(app, "package.json"), `${JSON.stringify({ name: "registry-deployment", private: true }, null, 2)}\n`);
  await npm(app, ["install", "--omit=dev", tarball, ...NPM_FLAGS]);
}, 300_000);

afterAll(async () => {
  if (serve !== undefined) await stopChild(serve);
  await rm(work, { recursive: true, force: true });
});

describe("a production install from the packed tarball (--omit=dev)", () => {
  it("holds the runtime dependencies only, and the systemd unit and redeploy script", async () => {
    const modules = join(app, "node_modules");
    const names = await readdir(modules);
    for (const dev of ["typescript", "vitest", "tsx", "eslint", "wrangler", "netlify-cli", "deno", "exceljs"])
      expect(names, dev).not.toContain(dev);
    for (const runtime of ["subjekti", "commander", "zod", "serve-handler", "yauzl", "saxes"]) expect(names, runtime).toContain(runtime);
    expect(await readdir(join(modules, "subjekti/deploy"))).toEqual(expect.arrayContaining(["subjekti.service", "redeploy.sh"]));
    const du = spawnSync("du", ["-sk", modules], { encoding: "utf8" });
    const kb = Number(du.stdout.split("\t")[0]);
    const packages = (await readdir(modules, { recursive: true })).filter(
      (name) => name.endsWith("package.json") && !name.includes("/test"),
    ).length;
    console.log(
      `production install: node_modules ${(kb / 1024).toFixed(1)} MB on disk, ${packages} package.json files (npm install --omit=dev of the packed tarball)`,
    );
    expect(kb).toBeGreaterThan(1024);
    // The development tree is ~800 MB: the production one must stay a small part of it.
    expect(kb).toBeLessThan(150 * 1024);
  });

  it("the manual ships with it: every relative link of its README and docs/ reaches a file in the package", async () => {
    const installed = join(app, "node_modules/subjekti");
    const pages = ["README.md", "BENCHMARKS.md", ...(await readdir(join(installed, "docs"))).map((name) => join("docs", name))];
    const broken: string[] = [];
    for (const page of pages.filter((name) => name.endsWith(".md"))) {
      const text = await readFile(join(installed, page), "utf8");
      for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
        if (target === undefined || /^[a-z]+:/i.test(target)) continue;
        const path = join(installed, page, "..", target);
        if (
          !(await stat(path).then(
            () => true,
            () => false,
          ))
        )
          broken.push(`${page}: ${target}`);
      }
    }
    expect(pages).toContain(join("docs", "data.md"));
    expect(broken).toEqual([]);
  });

  it("systemd-analyze verify finds nothing to say about the unit (where systemd is installed)", async () => {
    const analyze = spawnSync("systemd-analyze", ["--version"]);
    if (analyze.status !== 0) return;
    const unit = join(work, "subjekti.service");
    await cp(join(app, "node_modules/subjekti/deploy/subjekti.service"), unit);
    const verify = spawnSync("systemd-analyze", ["verify", unit], { encoding: "utf8" });
    // It warns on stderr (an unknown key, a bad value) and still exits 0.
    expect({ status: verify.status, stderr: verify.stderr.split("\n").filter((line) => line.includes("subjekti.service")) }).toEqual({
      status: 0,
      stderr: [],
    });
  });

  it("builds the sample with the installed CLI, and serves it by the unit's ExecStart", async () => {
    const bin = join(app, "node_modules/.bin/subjekti");
    const built = await run(
      bin,
      [
        "build",
        "--data",
        join(ROOT, "data"),
        "--out",
        join(app, "dist"),
        "--base-url",
        "https://registry.example.hr",
        "--no-cache",
        "--quiet",
      ],
      { cwd: app, encoding: "utf8" },
    );
    expect(built.stdout).toMatch(/^built 5758 subjects into /m);

    const unit = await readFile(join(app, "node_modules/subjekti/deploy/subjekti.service"), "utf8");
    const execStart = /^ExecStart=(.+)$/m.exec(unit)?.[1] ?? "";
    expect(execStart).toContain(" serve ");
    const port = await freePort();
    // The unit's command line, with /srv/subjekti moved here, a free port, and this Node.
    const [env, node, ...args] = execStart.replaceAll("/srv/subjekti", app).replace("--port 8081", `--port ${port}`).split(" ");
    expect([env, node]).toEqual(["/usr/bin/env", "node"]);
    const child = spawn(process.execPath, args, { cwd: app, stdio: ["ignore", "pipe", "pipe"] });
    serve = child;
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
    const first = await firstLine(
      child,
      (line) => {
        if (!line.startsWith("subjekti serve: ")) throw new Error("not yet");
        return line;
      },
      60_000,
    );

    // The printed URL answers as printed (any Host), and so does the curl line it gives.
    const printed = /^subjekti serve: (http:\/\/\S+) answers any Host/.exec(first)?.[1];
    expect(printed, first).toBe(`http://127.0.0.1:${port}/healthz`);
    const health = await fetch(printed as string);
    expect(health.status).toBe(200);
    expect(await health.json()).toMatchObject({ status: "ok", subjects: 5758 });
    const curl = /curl -H 'Host: ([^']+)' (\S+)/.exec(first);
    expect(curl?.[1]).toBe("registry.example.hr");
    const page = await sendRaw(port, "GET", `${new URL(curl?.[2] as string).pathname}?limit=2`, {
      Host: curl?.[1] as string,
      "X-Forwarded-Proto": "https",
    });
    expect(page.status).toBe(200);
    expect(JSON.parse(page.body.toString("utf8"))).toMatchObject({
      count: 5758,
      next: "https://registry.example.hr/api/subjekti/?limit=2&offset=2",
    });

    // A Host it does not answer: Django's 400, and a line saying why.
    const refused = await sendRaw(port, "GET", "/api/subjekti/", { Host: `127.0.0.1:${port}` });
    expect(refused.status).toBe(400);
    const why = `subjekti serve: refused Host "127.0.0.1:${port}" with a 400: it is not in --allowed-hosts (registry.example.hr)`;
    const logLines = (): string[] => stdout.split("\n").filter((line) => line.startsWith("127.0.0.1 - - ["));
    // The lines may reach the pipes after the answer: waited for as the child writes them, not for a while.
    await new Promise<void>((resolve) => {
      const look = (): void => {
        if (!stderr.includes(why) || logLines().length < 3) return;
        child.stdout?.off("data", look);
        child.stderr?.off("data", look);
        resolve();
      };
      child.stdout?.on("data", look);
      child.stderr?.on("data", look);
      look();
    });
    expect(stderr).toContain(why);
    // One access-log line per request, in the common log format.
    const log = logLines();
    expect(log).toHaveLength(3);
    expect(log[1]).toMatch(/\] "GET \/api\/subjekti\/\?limit=2 HTTP\/1\.1" 200 \d+$/);
    expect(log[2]).toMatch(/\] "GET \/api\/subjekti\/ HTTP\/1\.1" 400 \d+$/);
  }, 120_000);
});

describe("npm ci --omit=dev in a checkout", () => {
  it("installs without TypeScript: prepare says lib/ was not compiled instead of failing", async () => {
    const checkout = join(work, "checkout");
    await mkdir(join(checkout, "scripts"), { recursive: true });
    // A checkout holds .npmrc too (legacy-peer-deps, without which npm ci refuses the lock): under
    // `npm test` npm hands its settings to the test in the environment, under vitest alone it does not.
    for (const name of ["package.json", "package-lock.json", ".npmrc", "scripts/prepare.mjs"])
      await cp(join(ROOT, name), join(checkout, name));
    const installed = await npm(checkout, ["ci", "--omit=dev", ...NPM_FLAGS]);
    expect(installed.stdout).toContain("subjekti: TypeScript is not installed (--omit=dev): lib/ was not compiled");
    expect(await readdir(join(checkout, "node_modules"))).not.toContain("typescript");
  }, 300_000);
});
