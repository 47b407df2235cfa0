/**
 * The Worker in a real Workers runtime: `wrangler dev` (wrangler's own esbuild bundle of
 * src/cloudflare/worker.ts, run by workerd under Miniflare, with the assets router of the repo's
 * wrangler.jsonc) serving a built site, on 127.0.0.1 only.
 *
 * Offline on purpose: a temp HOME (no login state, nothing written to the user's config),
 * `CLOUDFLARE_CF_FETCH_ENABLED=false` (Miniflare would otherwise fetch a `Request.cf` sample from
 * workers.cloudflare.com), no metrics. The config is the repo's wrangler.jsonc with `main` made
 * absolute and the assets directory pointed at the built site, written into a temp directory, so
 * wrangler's `.wrangler/` scratch stays out of the repo.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import ts from "typescript";
import { firstLine, freePort, stopChild } from "./hosts.ts";

const REPO = resolve(import.meta.dirname, "../..");

/** A running `wrangler dev`: the port it answers on, the workerd processes it runs, and how to stop it. */
export interface WranglerDev {
  readonly port: number;
  /** The child's pid (wrangler's Node process). */
  readonly pid: number;
  stop(): Promise<void>;
}

/** The repo's wrangler.jsonc as an object (JSON with comments, read by TypeScript's own JSONC parser). */
export async function readWranglerConfig(): Promise<Record<string, unknown>> {
  const text = await readFile(join(REPO, "wrangler.jsonc"), "utf8");
  const { config, error } = ts.parseConfigFileTextToJson("wrangler.jsonc", text);
  if (error !== undefined) throw new Error(`wrangler.jsonc: ${ts.flattenDiagnosticMessageText(error.messageText, "\n")}`);
  return config as Record<string, unknown>;
}

/** Starts `wrangler dev` on the built site in `site` (on `port`, else a free one); resolves once it answers. */
export async function startWranglerDev(site: string, port?: number): Promise<WranglerDev> {
  const root = await mkdtemp(join(tmpdir(), "subjekti-wrangler-"));
  const config = await readWranglerConfig();
  const assets = config["assets"] as Record<string, unknown>;
  await writeFile(
    join(root, "wrangler.jsonc"),
    JSON.stringify({ ...config, main: join(REPO, String(config["main"])), assets: { ...assets, directory: site } }, null, 2),
  );
  const home = join(root, "home");
  await mkdir(home);
  port ??= await freePort();
  const inspectorPort = await freePort();
  const child: ChildProcess = spawn(
    // SUBJEKTI_WRANGLER: another wrangler to test against (CI runs the newest on Node 22).
    process.env["SUBJEKTI_WRANGLER"] ?? join(REPO, "node_modules/.bin/wrangler"),
    [
      "dev",
      "--config",
      join(root, "wrangler.jsonc"),
      "--ip",
      "127.0.0.1",
      "--port",
      String(port),
      "--inspector-port",
      String(inspectorPort),
      "--show-interactive-dev-session=false",
    ],
    {
      cwd: root,
      env: {
        ...process.env,
        HOME: home,
        XDG_CONFIG_HOME: join(home, ".config"),
        CI: "1",
        NO_COLOR: "1",
        CLOUDFLARE_CF_FETCH_ENABLED: "false",
        WRANGLER_SEND_METRICS: "false",
      },
      stdio: ["ignore", "pipe", "pipe"],
    },
  );
  try {
    await firstLine(
      child,
      (line) => {
        if (!line.includes(`Ready on http://127.0.0.1:${port}`)) throw new Error("not yet");
      },
      120_000,
    );
  } catch (error) {
    await stopChild(child);
    await rm(root, { recursive: true, force: true });
    throw error;
  }
  return {
    port,
    pid: child.pid ?? 0,
    stop: async () => {
      await stopChild(child);
      await rm(root, { recursive: true, force: true });
    },
  };
}
