/**
 * The command line through `main`, in-process: usage errors exit 2 with their line (each kind in
 * both languages: usage-errors.test.ts); environment errors are one line saying what to do, exit 1,
 * never a stack trace; the preview takes PORT and HOST as defaults and `--port 0` picks a free port.
 */
import { createServer, type Server } from "node:net";
import { rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../run-cli.ts";
import { tempDir } from "../file-trees.ts";

let work: string;
let site: string;
beforeAll(async () => {
  work = await tempDir("subjekti-cli-");
  site = join(work, "site");
  expect((await runCli(["build", "--data", "test/fixtures/small-site", "--out", site, "--no-cache", "--quiet"])).code).toBe(0);
});
afterAll(() => rm(work, { recursive: true, force: true }));

describe("usage errors exit 2", () => {
  it.each([
    [["build", "--limits", "x"], /argument 'x' is invalid. expected a positive integer/],
    [["frobnicate"], /unknown command 'frobnicate'/],
    [["preview", "--port", "99999"], /expected a port from 0 to 65535/],
    [["build", "--forms", "xml"], /"xml" is not a form/],
    [["serve", "--allowed-hosts", "registry.example.hr,evil.org/x"], /"evil.org\/x" is not a host name/],
    [["preview", "--allowed-hosts", "a b"], /"a b" is not a host name/],
  ])("%j", async (args, message) => {
    const { code, stderr } = await runCli(args);
    expect(code).toBe(2);
    expect(stderr).toMatch(message);
  });

  it("--help and --version exit 0", async () => {
    expect(await runCli(["--version"])).toMatchObject({ code: 0, stdout: "0.1.0\n" });
    expect((await runCli(["build", "--help"])).code).toBe(0);
  });
});

describe("environment errors: one line with what to do, exit 1", () => {
  it("--out that is a file", async () => {
    const file = join(work, "a-file");
    await writeFile(file, "not a site");
    expect(await runCli(["build", "--data", "test/fixtures/small-site", "--out", file])).toEqual({
      code: 1,
      stdout: "",
      stderr: `subjekti: --out ${file} is a file, not a directory: pass another --out, or move the file\n`,
    });
  });

  it.each(["validate", "build"])("%s with a --data that is a file", async (command) => {
    expect(await runCli([command, "--data", "package.json", ...(command === "build" ? ["--out", join(work, "never")] : [])])).toEqual({
      code: 1,
      stdout: "",
      stderr:
        "subjekti: --data package.json is a file: pass the directory that holds the *.json, *.ndjson, *.csv, *.xlsx and *.ods files\n",
    });
  });

  it("a port in use: names the port and suggests --port", async () => {
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    const port = (busy.address() as { port: number }).port;
    try {
      const { code, stderr } = await runCli(["preview", "--dir", site, "--port", String(port)]);
      expect({ code, stderr }).toEqual({
        code: 1,
        stderr: `subjekti: port ${port} on 127.0.0.1 is in use: pass another --port (or --port 0 for any free one)\n`,
      });
    } finally {
      busy.close();
    }
  });

  it("a PORT that is not a port", async () => {
    const { code, stderr } = await runCli(["preview", "--dir", site], { PORT: "http" });
    expect({ code, stderr }).toEqual({
      code: 1,
      stderr:
        'subjekti: PORT=http in the environment: expected a port from 0 to 65535 (0: any free one), got "http"; unset it or pass --port\n',
    });
  });
});

describe("the preview's address", () => {
  /** Runs the preview until it has answered one request at the address it printed; returns what it printed. */
  async function serveOnce(args: string[], env: Record<string, string> = {}): Promise<{ code: number; url: string; status: number }> {
    let stop = (): void => undefined;
    const stopped = new Promise<void>((resolve) => (stop = resolve));
    let printed = "";
    const io = {
      stdout: { write: (text: string) => (printed += text) },
      stderr: { write: (text: string) => (printed += text) },
      env,
      untilStopped: () => stopped,
    };
    const { main } = await import("../../src/cli/main.ts");
    const running = main(["preview", "--dir", site, ...args], io);
    for (let i = 0; i < 400 && !printed.includes("\n"); i++) await new Promise((resolve) => setTimeout(resolve, 25));
    const url = /subjekti preview: (\S+) /.exec(printed)?.[1] ?? "";
    const status = url === "" ? 0 : (await fetch(url)).status;
    stop();
    return { code: await running, url, status };
  }

  it("--port 0 picks a free port and prints the address", async () => {
    const { code, url, status } = await serveOnce(["--port", "0"]);
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/api\/subjekti\/$/);
    expect(url).not.toContain(":0/");
    expect([status, code]).toEqual([200, 0]);
  });

  it("--allowed-hosts: any other Host gets a 400 (127.0.0.1 is the Host fetch sends here)", async () => {
    expect((await serveOnce(["--port", "0", "--allowed-hosts", "registry.example.hr"])).status).toBe(400);
    expect((await serveOnce(["--port", "0", "--allowed-hosts", "registry.example.hr,127.0.0.1"])).status).toBe(200);
  });

  it("PORT and HOST are the defaults; --port wins over PORT", async () => {
    const fromEnv = await serveOnce([], { PORT: "0", HOST: "localhost" });
    expect(fromEnv.url).toMatch(/^http:\/\/(127\.0\.0\.1|\[::1\]):\d+\/api\/subjekti\/$/);
    expect(fromEnv.status).toBe(200);
    const busy: Server = createServer();
    await new Promise<void>((resolve) => busy.listen(0, "127.0.0.1", resolve));
    try {
      const flag = await serveOnce(["--port", "0"], { PORT: String((busy.address() as { port: number }).port) });
      expect(flag.status).toBe(200);
    } finally {
      busy.close();
    }
  });
});
