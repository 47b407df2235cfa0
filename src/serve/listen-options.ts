/**
 * The command-line values of the commands that listen (`preview`, `serve`): a port, the port from
 * the environment, and an ALLOWED_HOSTS list; read at the boundary into typed values.
 */
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { InvalidValue } from "../common/messages/invalid-value.ts";

/** The address a server listens on unless told otherwise: loopback only. */
export const DEFAULT_HOST = "127.0.0.1";

/** A TCP port from the command line (0: any free one). */
export function port(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n < 0 || n > 65535 || text.trim() === "") throw new InvalidValue(msg("invalid.port", { text }));
  return n;
}

/** The port from `$PORT` when it is set, else `fallback`. */
export function envPort(text: string | undefined, fallback: number): number {
  if (text === undefined || text === "") return fallback;
  try {
    return port(text);
  } catch (error) {
    if (!(error instanceof InvalidValue)) throw error;
    throw failure("BAD_PORT", msg("error.env-port", { text, detail: error.text }));
  }
}

/** Django's ALLOWED_HOSTS from a comma list: `registry.example.hr`, `.example.hr` (and subdomains), `*`. */
export function allowedHostList(text: string): string[] {
  const hosts = text.split(",").map((part) => part.trim());
  const bad = hosts.find((host) => !/^(?:\*|\.?[A-Za-z0-9.-]+|\[[0-9A-Fa-f:.]+\])$/.test(host));
  if (bad !== undefined) throw new InvalidValue(msg("invalid.host-name", { host: bad }));
  return hosts;
}
