/**
 * `subjekti serve`: the preview's adapter run for production, behind nginx (or alone): the manifest
 * read once (a rebuild is followed only with --watch, or when a file the manifest names is gone),
 * only the hosts the deployer names answered (Django's ALLOWED_HOSTS, by default the base URL's
 * host), and a graceful stop on SIGTERM or SIGINT: no new connection, the answers in flight
 * finished, exit 0.
 */
import type { Command } from "commander";
import type { Io } from "./io.ts";
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
  readonly watch: boolean;
  readonly forwardedProto: boolean;
}

/** Adds `serve` to the program; `listening` learns the address before it is bound (for the CLI's error lines). */
export function addServeCommand(program: Command, io: Io, listening: (address: { host: string; port: number }) => void): void {
  program
    .command("serve")
    .description("serve a built site in production (behind nginx: see `subjekti nginx`), routed exactly as the preview and the edge")
    // The build's default --out (src/serve does not import the build).
    .option("--dir <dir>", "the built site", "dist")
    .option("--port <n>", `the port (default: $PORT, else ${SERVE_PORT}; 0: any free port)`, port)
    .option("--host <host>", `the address to listen on (default: $HOST, else ${DEFAULT_HOST})`)
    .option("--allowed-hosts <list>", "answer only these Host names (registry.example.hr, .example.hr for it and its subdomains, * for any), any other with Django's 400 (default: the base URL's host)", allowedHostList)
    .option("--watch", "follow rebuilds of --dir (default: read the manifest once; restart after a build)", false)
    .option("--forwarded-proto", "take the links' scheme from X-Forwarded-Proto: only behind a proxy that sets it (the nginx configuration does)", false)
    .action(async (flags: ServeFlags) => {
      const address = { host: flags.host ?? io.env["HOST"] ?? DEFAULT_HOST, port: flags.port ?? envPort(io.env["PORT"], SERVE_PORT) };
      listening(address);
      const { startPreview } = await import("../serve/preview-server.ts");
      const running = await startPreview({ dir: flags.dir, ...address, watch: flags.watch, allowedHosts: flags.allowedHosts ?? "base-url", forwardedProto: flags.forwardedProto });
      io.stdout.write(`subjekti serve: ${running.url} for ${(running.allowedHosts ?? ["*"]).join(", ")} (SIGTERM stops after the answers in flight)\n`);
      await io.untilStopped();
      await running.drain(DRAIN_MS);
      io.stdout.write("subjekti serve: stopped\n");
    });
}
