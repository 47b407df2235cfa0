/**
 * A Netlify build as far as offline allows (`npm run test:netlify`): the real `netlify build
 * --offline` (netlify-cli's build, the edge bundler, Deno) in a copy of the project's files runs
 * netlify.toml's build command and bundles the edge function; its manifest routes every path
 * netlify.toml declares to the function. Offline, netlify-cli logs that it cannot fetch the
 * function's in-source configuration types from Netlify's servers; the routes come from
 * netlify.toml, which is what is checked.
 */
import { spawn } from "node:child_process";
import { copyFile, mkdir, readFile, rm, symlink } from "node:fs/promises";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { tempDir } from "../file-trees.ts";
import { PUBLISHED_PATHS } from "../../src/core/published-files.ts";

const ENABLED = process.env["SUBJEKTI_NETLIFY"] === "1";
const REPO = resolve(import.meta.dirname, "../..");

describe.skipIf(!ENABLED)("netlify build --offline (npm run test:netlify)", () => {
  it("builds the site with netlify.toml's command and bundles the edge function for every declared path", async () => {
    const root = await tempDir("subjekti-netlify-build-");
    try {
      for (const name of ["node_modules", "lib", "bin", "data", "src", "scripts"]) await symlink(join(REPO, name), join(root, name));
      for (const name of ["package.json", "netlify.toml"]) await copyFile(join(REPO, name), join(root, name));
      await mkdir(join(root, "home"));
      const child = spawn(join(REPO, "node_modules/.bin/netlify"), ["build", "--offline"], {
        cwd: root,
        env: {
          ...process.env,
          HOME: join(root, "home"),
          CI: "1",
          PATH: `${join(REPO, "node_modules/.bin")}:${process.env["PATH"] ?? ""}`,
          NETLIFY_EDGE_BOOTSTRAP: `file://${join(REPO, "scripts/test-netlify-edge-bootstrap.mjs")}`,
          DENO_NO_UPDATE_CHECK: "1",
        },
        stdio: ["ignore", "pipe", "pipe"],
      });
      let output = "";
      child.stdout.on("data", (text: Buffer) => (output += text.toString()));
      child.stderr.on("data", (text: Buffer) => (output += text.toString()));
      const code = await new Promise<number | null>((done) => child.on("close", done));
      expect(code, output.slice(-2000)).toBe(0);
      expect(output).toContain("Netlify Build Complete");
      // The build command ran: the site is in dist/ (the publish directory).
      await readFile(join(root, "dist/_subjekti/manifest.json"));
      const manifest = JSON.parse(await readFile(join(root, ".netlify/edge-functions-dist/manifest.json"), "utf8")) as {
        routes: { function: string; pattern: string }[];
      };
      // Every path the router answers beyond static files reaches the function.
      for (const path of [
        ...PUBLISHED_PATHS,
        "/api",
        "/api/",
        "/api/subjekti",
        "/api/subjekti/",
        "/api/subjekti.json",
        "/api/subjekti/5/",
        "/api/subjekti/5",
        "/api/other",
        "/schema/subject.json",
      ]) {
        expect(
          manifest.routes.some((route) => route.function === "subjekti" && new RegExp(route.pattern).test(path)),
          path,
        ).toBe(true);
      }
    } finally {
      await rm(root, { recursive: true, force: true });
    }
  }, 180_000);
});
