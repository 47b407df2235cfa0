/**
 * `subjekti serve`: the preview's adapter run for production, behind nginx (or alone): rebuilds of
 * --dir followed as the preview follows them (the manifest watched; --no-watch reads it once, and
 * again only when a file it names is gone),
 * only the hosts the deployer names answered (Django's ALLOWED_HOSTS, by default the base URL's
 * host, each refused Host said on stderr), an access log (--log), a health check at /healthz on any
 * Host, and a graceful stop on SIGTERM or SIGINT: no new connection, the answers in flight
 * finished, exit 0.
 */
import { type Command, Option } from "commander";
import type { Translator } from "../common/messages/message.ts";
import type { Io } from "./io.ts";
import { terminalLines } from "../common/terminal-text.ts";
import { DEFAULT_OPTIONS } from "../site/build-options.ts";
import { allowedHostList, DEFAULT_HOST, envPort, port } from "../serve/listen-options.ts";

/** Where `subjekti serve` listens by default: the upstream the nginx configuration names. */
export const SERVE_PORT = 8081;
/** How long a stop waits for the answers in flight before it cuts their connections. */
export const DRAIN_MS = 10_000;

interface ServeFlags {
  readonly dir: string;
  readonly port?: number;
  readonly host?: string;
  readonly allowedHosts?: string[];
  readonly watch?: boolean;
  readonly forwardedProto: boolean;
  readonly log?: "common" | "json";
}

/** Adds `serve` to the program; `listening` learns the address before it is bound (for the CLI's error lines). */
export function addServeCommand(
  program: Command,
  io: Io,
  tr: Translator,
  listening: (address: { host: string; port: number }) => void,
): void {
  program
    .command("serve")
    .description("serve a built site in production (behind nginx: see `subjekti nginx`), routed exactly as the preview and the edge")
    .option("--dir <dir>", "the built site", DEFAULT_OPTIONS.outDir)
    .option("--port <n>", `the port (default: $PORT, else ${SERVE_PORT}; 0: any free port)`, port)
    .option("--host <host>", `the address to listen on (default: $HOST, else ${DEFAULT_HOST})`)
    .option(
      "--allowed-hosts <list>",
      "answer only these Host names (registry.example.hr, .example.hr for it and its subdomains, * for any), any other with Django's 400 (default: the base URL's host)",
      allowedHostList,
    )
    .option(
      "--watch",
      "follow rebuilds of --dir: the manifest is looked at every 100 ms and before every conditional request (the default)",
    )
    .option("--no-watch", "read the manifest once (again only when a file it names is gone): restart after a build")
    .option(
      "--forwarded-proto",
      "take the links' scheme from X-Forwarded-Proto: only behind a proxy that sets it (the nginx configuration does)",
      false,
    )
    .addOption(
      new Option("--log <format>", "an access log on stdout, one line per request: common (nginx's and Apache's format) or json").choices([
        "common",
        "json",
      ]),
    )
    .action(async (flags: ServeFlags) => {
      const address = { host: flags.host ?? io.env["HOST"] ?? DEFAULT_HOST, port: flags.port ?? envPort(io.env["PORT"], SERVE_PORT) };
      listening(address);
      const { startPreview } = await import("../serve/preview-server.ts");
      const running = await startPreview({
        dir: flags.dir,
        ...address,
        watch: flags.watch ?? true,
        allowedHosts: flags.allowedHosts ?? "base-url",
        forwardedProto: flags.forwardedProto,
        health: true,
        ...(flags.log === undefined ? {} : { log: { format: flags.log, write: (line: string) => io.stdout.write(terminalLines([line])) } }),
        onRefusedHost: (host, allowed) =>
          io.stderr.write(terminalLines([`subjekti serve: ${tr.text("serve.refused-host", { host: JSON.stringify(host), allowed })}`])),
      });
      io.stdout.write(`subjekti serve: ${startLine(running.url, running.allowedHosts, tr)}\n`);
      await io.untilStopped();
      await running.drain(DRAIN_MS);
      io.stdout.write(`subjekti serve: ${tr.text("serve.stopped")}\n`);
    });
}

/**
 * The first line: a URL that answers as printed. With ALLOWED_HOSTS the listening address is no
 * allowed Host (its 400 would look like a broken server), so the line gives the health check, which
 * answers any Host, and the curl line that sends an allowed one.
 */
function startLine(collection: string, allowed: readonly string[] | undefined, tr: Translator): string {
  if (allowed === undefined || allowed.includes("*")) return tr.text("serve.any-host", { collection });
  const host = allowed.find((name) => !name.startsWith(".")) ?? `www${allowed[0] ?? ""}`;
  return tr.text("serve.allowed-hosts", { origin: new URL(collection).origin, allowed, host, collection });
}
