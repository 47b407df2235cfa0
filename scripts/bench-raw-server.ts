/**
 * The baseline of the preview benchmark: a bare node:http server with serve-handler and nothing
 * else (no routing, no headers of ours), serving a built site's files as they are. Run in its
 * own process by scripts/bench.ts, like the preview, so neither shares the load generator's loop.
 *
 *   node --import tsx scripts/bench-raw-server.ts --dir .bench/tmp/site --port 8091
 */
import { createServer } from "node:http";
import { Command, InvalidArgumentError } from "commander";
import handler from "serve-handler";

function port(text: string): number {
  const n = Number(text);
  if (!Number.isInteger(n) || n < 1 || n > 65535) throw new InvalidArgumentError(`expected a port, got "${text}"`);
  return n;
}

const flags = new Command("bench-raw-server")
  .requiredOption("--dir <dir>", "the directory to serve")
  .requiredOption("--port <n>", "the port", port)
  .option("--host <host>", "the address", "127.0.0.1")
  .parse(process.argv)
  .opts<{ dir: string; port: number; host: string }>();

// etag: true so that a 304 baseline exists (serve-handler hashes a file once per mtime).
const server = createServer((request, response) => {
  void handler(request, response, { public: flags.dir, etag: true });
});
server.listen(flags.port, flags.host, () => {
  process.stdout.write(`raw serve-handler: http://${flags.host}:${flags.port}/\n`);
});
process.once("SIGTERM", () => server.close(() => process.exit(0)));
process.once("SIGINT", () => server.close(() => process.exit(0)));
