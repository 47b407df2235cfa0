/**
 * Netlify's build environment, read by the real CLI (a child process with that environment, so
 * process.env reaches the build as it does on Netlify): `URL` in the production context and
 * `DEPLOY_PRIME_URL` in the others are the links' origin when no --base-url is given, and
 * `NETLIFY=true` checks the site against Netlify's limits as `--target netlify` does.
 * Mutations caught: buildOptionsOf ignoring `env` for the base URL (the links stay on
 * localhost:8080), and `NETLIFY=true` no longer meaning `--target netlify` (the 54,001-page
 * directory is written instead of refused) — src/cli/build.ts.
 */
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { mkdir, readFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { generateFile } from "../../scripts/generate-subjects.ts";
import { MANIFEST_PATH, pagePath } from "../../src/core/layout.ts";
import type { Manifest } from "../../src/core/manifest.ts";
import { FIXTURE_DATA } from "../hosts/fixture-site.ts";
import { useTempDir } from "../file-trees.ts";
import { CLI_ENTRY } from "../cli-entry.ts";

const run = promisify(execFile);
const ROOT = join(import.meta.dirname, "../..");
const dir = useTempDir();

/** `subjekti <args>` run from the sources in a child whose environment is `env` alone (plus PATH); never rejects. */
async function subjekti(args: readonly string[], env: Record<string, string>): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...CLI_ENTRY, ...args], {
      cwd: ROOT,
      env: { PATH: process.env["PATH"] ?? "", ...env },
      encoding: "utf8",
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

/** The `next` link of the first pre-rendered page of a built site. */
async function firstNext(out: string): Promise<string> {
  const manifest = JSON.parse(await readFile(join(out, MANIFEST_PATH), "utf8")) as Manifest;
  const path = pagePath(manifest, "plain", 20, 0);
  if (path === null) throw new Error(`no plain page 0 of 20 in ${out}`);
  return (JSON.parse(await readFile(join(out, path), "utf8")) as { next: string }).next;
}

const NETLIFY_URLS = { URL: "https://registry.example.hr", DEPLOY_PRIME_URL: "https://deploy-preview-7--registry.netlify.app" };

describe("Netlify's environment through the CLI", () => {
  it.each([
    ["CONTEXT=production -> the links on $URL", "production", "https://registry.example.hr/api/subjekti/?limit=20&offset=20"],
    [
      "CONTEXT=deploy-preview -> the links on $DEPLOY_PRIME_URL",
      "deploy-preview",
      "https://deploy-preview-7--registry.netlify.app/api/subjekti/?limit=20&offset=20",
    ],
  ])("%s", async (_name, context, next) => {
    const out = join(dir.path, context);
    const built = await subjekti(["build", "--data", FIXTURE_DATA, "--out", out, "--no-cache", "--quiet", "--no-feed"], {
      ...NETLIFY_URLS,
      CONTEXT: context,
    });
    expect(built.code, built.stderr).toBe(0);
    expect(await firstNext(out)).toBe(next);
  });

  it("NETLIFY=true -> checked against Netlify's 54,000 files a directory: 54,001 plain pages refused, nothing written", async () => {
    const data = join(dir.path, "many");
    await mkdir(data);
    await generateFile({ count: 54_001, seed: "netlify", format: "ndjson" }, join(data, "subjekti.ndjson"));
    const out = join(dir.path, "many-site");
    const refused = await subjekti(
      [
        "build",
        "--data",
        data,
        "--out",
        out,
        "--links",
        "files",
        "--limits",
        "1",
        "--base-url",
        "https://registry.example.hr",
        "--no-cache",
        "--quiet",
        "--no-feed",
      ],
      { NETLIFY: "true" },
    );
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(
      "subjekti: the site does not fit Netlify: 54,001 files in api/subjekti/1/, over its 54,000 files a directory",
    );
    expect(existsSync(out)).toBe(false);
  }, 120_000);
});
