/**
 * A site behind a certificate the system does not trust (a private CA's, or self-signed: a staging
 * server): `build --previous` and `sync` refuse it in one line that names the fix (--ca, --insecure),
 * in English and Croatian, and with `--ca <the certificate>` or `--insecure` read its feed. The site
 * is a built site's files served by Node's https server with a certificate openssl made for 127.0.0.1.
 */
import { spawnSync } from "node:child_process";
import { readFile } from "node:fs/promises";
import { createServer, type Server } from "node:https";
import { join, normalize } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli.ts";
import { useTempDir } from "../file-trees.ts";
import { selfSignedCertificate } from "../certificates.ts";

const work = useTempDir();
const OPENSSL = spawnSync("openssl", ["version"]).status === 0;
let server: Server | undefined;
let origin = "";
let cert = "";

/** `subjekti build` of the fixture into `out`, its feed on; more arguments after. */
const build = (out: string, ...more: string[]): ReturnType<typeof runCli> =>
  runCli([
    "build",
    "--data",
    "test/fixtures/small-site",
    "--out",
    out,
    "--no-cache",
    "--quiet",
    "--base-url",
    "https://127.0.0.1",
    ...more,
  ]);

beforeAll(async () => {
  if (!OPENSSL) return;
  const site = join(work.path, "live");
  expect((await build(site)).code).toBe(0);
  let key: string;
  ({ cert, key } = selfSignedCertificate(work.path, "127.0.0.1", "IP:127.0.0.1"));
  // The built site's files, as a static host serves them.
  server = createServer({ cert: await readFile(cert), key: await readFile(key) }, (request, response) => {
    const path = normalize(decodeURIComponent(new URL(request.url ?? "/", "https://x").pathname));
    readFile(join(site, path)).then(
      (bytes) => response.end(bytes),
      () => {
        response.statusCode = 404;
        response.end();
      },
    );
  });
  await new Promise<void>((listening) => server?.listen(0, "127.0.0.1", listening));
  const address = server.address();
  origin = `https://127.0.0.1:${typeof address === "object" && address !== null ? address.port : 0}`;
}, 60_000);

afterAll(async () => {
  await new Promise((closed) => (server === undefined ? closed(undefined) : server.close(closed)));
});

const refusal = (url: string): { en: string; hr: string } => ({
  en: `subjekti: cannot reach ${url}: DEPTH_ZERO_SELF_SIGNED_CERT: trust its CA with --ca <file> (PEM), or skip the certificate check with --insecure\n`,
  hr: `subjekti: ${url} nije dostupan: DEPTH_ZERO_SELF_SIGNED_CERT: zadajte njegov CA s --ca <datoteka> (PEM) ili preskočite provjeru certifikata s --insecure\n`,
});

describe.skipIf(!OPENSSL)("a site whose certificate the system does not trust", () => {
  it("sync: refused in one line naming --ca and --insecure, in both languages; --ca or --insecure syncs", async () => {
    const copy = join(work.path, "copy.ndjson");
    const said = refusal(`${origin}/changes/state.json`);
    expect(await runCli(["sync", origin, copy])).toMatchObject({ code: 1, stderr: said.en });
    expect(await runCli(["sync", origin, copy, "--lang", "hr"])).toMatchObject({ code: 1, stderr: said.hr });
    const trusted = await runCli(["sync", origin, copy, "--ca", cert, "--json"]);
    expect(trusted.code, trusted.stderr).toBe(0);
    expect(JSON.parse(trusted.stdout)).toMatchObject({ from: null, to: 1 });
    const insecure = await runCli(["sync", origin, join(work.path, "other.ndjson"), "--insecure", "--json"]);
    expect(insecure.code, insecure.stderr).toBe(0);
  });

  it("build --previous: refused in one line naming --ca and --insecure, in both languages; with --ca the feed goes on from the live site", async () => {
    const said = refusal(`${origin}/changes/state.json`);
    const out = join(work.path, "ci");
    expect(await build(out, "--previous", origin)).toMatchObject({ code: 1, stderr: said.en });
    expect(await build(out, "--previous", origin, "--lang", "hr")).toMatchObject({ code: 1, stderr: said.hr });
    for (const trust of [["--ca", cert], ["--insecure"]]) {
      const built = await build(join(work.path, `ci${trust.length}`), "--previous", origin, ...trust);
      expect(built.code, built.stderr).toBe(0);
      // The same data as the live site's: its feed carried over, still at its sequence.
      const state = JSON.parse(await readFile(join(work.path, `ci${trust.length}`, "changes/state.json"), "utf8")) as { sequence: number };
      expect(state.sequence).toBe(1);
    }
  });
});
