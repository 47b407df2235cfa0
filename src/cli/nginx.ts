/**
 * `subjekti nginx`: prints the nginx configuration (nginx-config.ts) for a built site, read from its
 * manifest, to include at nginx's `http {}` level in front of `subjekti serve`: TLS when the listen
 * says ssl, every name prefixed by --name (sites side by side), gzip unless --no-gzip.
 */
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import type { Command } from "commander";
import type { Io } from "./io.ts";
import { type Message, msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { DEFAULT_OPTIONS } from "../site/build-options.ts";
import { isErrno } from "../common/machine-error.ts";
import { InvalidValue } from "../common/messages/invalid-value.ts";

interface NginxFlags {
  readonly dir: string;
  readonly listen: string;
  readonly name: string;
  readonly sslCertificate?: string;
  readonly sslCertificateKey?: string;
  readonly gzip: boolean;
  readonly serverName: string;
  readonly upstream: string;
}

/** A value written into the configuration as one nginx token: no spaces, quotes, `;`, braces or `$`. */
function token(refusal: (text: string) => Message, pattern: RegExp): (text: string) => string {
  return (text) => {
    if (!pattern.test(text)) throw new InvalidValue(refusal(text));
    return text;
  };
}

const ADDRESS = /^(?:\d{1,5}|[A-Za-z0-9.-]+:\d{1,5}|\[[0-9A-Fa-f:.]+\]:\d{1,5})$/;
/** listen's parameters a deployer may need here (TLS, HTTP/2, the default server of a port). */
const LISTEN_PARAMETERS = new Set(["ssl", "http2", "default_server", "reuseport", "ipv6only=on", "ipv6only=off"]);

/** nginx's listen: an address, then parameters (`443 ssl http2`, `[::]:443 ssl`). */
function listen(text: string): string {
  const [address = "", ...parameters] = text.trim().split(/\s+/);
  if (!ADDRESS.test(address)) throw new InvalidValue(msg("invalid.listen-address", { address }));
  const bad = parameters.find((parameter) => !LISTEN_PARAMETERS.has(parameter));
  if (bad !== undefined) throw new InvalidValue(msg("invalid.listen-parameter", { parameter: bad, parameters: [...LISTEN_PARAMETERS] }));
  return [address, ...parameters].join(" ");
}

/** A path nginx reads, written quoted: absolute, without quotes, `;`, braces, `$` or backslashes. */
function pemPath(text: string): string {
  const path = resolve(text);
  if (/[\s'"{};$\\]/.test(path)) throw new InvalidValue(msg("invalid.nginx-path", { text }));
  return path;
}

const NAME = token((text) => msg("invalid.nginx-name", { text }), /^[a-z][a-z0-9_]{0,39}$/);
const UPSTREAM = token(
  (text) => msg("invalid.upstream", { text }),
  /^(?:[A-Za-z0-9.-]+:\d{1,5}|\[[0-9A-Fa-f:.]+\]:\d{1,5}|unix:\/[\w./-]+)$/,
);

function serverNames(text: string): string {
  const names = text.trim().split(/[\s,]+/);
  const bad = names.find((name) => !/^(?:_|[*.]?[A-Za-z0-9.-]+\*?)$/.test(name));
  if (bad !== undefined) throw new InvalidValue(msg("invalid.server-name", { name: bad }));
  return names.join(" ");
}

/** Adds `nginx` to the program. */
export function addNginxCommand(program: Command, io: Io): void {
  program
    .command("nginx")
    .description(
      "print an nginx configuration (maps and a server block, for http {}) that serves the pre-rendered pages of a built site and proxies the rest to `subjekti serve`",
    )
    .option("--dir <dir>", "the built site (nginx's root: give the path nginx will find it at)", DEFAULT_OPTIONS.outDir)
    .option(
      "--listen <address>",
      "nginx's listen: a port or address:port, then ssl, http2, default_server as needed ('443 ssl http2')",
      listen,
      "8080",
    )
    .option("--ssl-certificate <file>", "the certificate (PEM, chain included) for a listen with ssl", pemPath)
    .option("--ssl-certificate-key <file>", "its private key (PEM)", pemPath)
    .option(
      "--name <name>",
      "the prefix of every name the configuration gives (upstream, variables): one name per site when several share one nginx",
      NAME,
      "subjekti",
    )
    .option("--no-gzip", "send the answers uncompressed (default: gzip for clients that accept it)")
    .option("--server-name <names>", "nginx's server_name (_ for any)", serverNames, "_")
    .option("--upstream <address>", "where `subjekti serve` listens: host:port or unix:/path", UPSTREAM, "127.0.0.1:8081")
    .action(async (flags: NginxFlags) => {
      const root = resolve(flags.dir);
      if (/[\s'"{};$\\]/.test(root)) throw failure("BAD_DIR", msg("error.nginx-root", { dir: root }));
      const [{ readSiteManifest }, { nginxConfig }] = await Promise.all([
        import("../common/read-site-manifest.ts"),
        import("../nginx/nginx-config.ts"),
      ]);
      const manifest = await readSiteManifest(root);
      const tls = /\sssl(?:\s|$)/.test(flags.listen);
      if (tls && (flags.sslCertificate === undefined || flags.sslCertificateKey === undefined)) {
        throw failure("BAD_TLS", msg("error.tls-needs-certificate", { listen: flags.listen }));
      }
      if (!tls && (flags.sslCertificate !== undefined || flags.sslCertificateKey !== undefined)) {
        throw failure("BAD_TLS", msg("error.tls-needs-listen", { listen: flags.listen }));
      }
      io.stdout.write(
        nginxConfig(manifest, {
          root,
          listen: flags.listen,
          serverName: flags.serverName,
          upstream: flags.upstream,
          name: flags.name,
          sslCertificate: flags.sslCertificate,
          sslCertificateKey: flags.sslCertificateKey,
          gzip: flags.gzip,
          readText: (path) => {
            try {
              return readFileSync(join(root, path), "utf8");
            } catch (error) {
              if (isErrno(error, "ENOENT")) return null;
              throw error;
            }
          },
        }),
      );
    });
}
