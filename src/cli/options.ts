/**
 * The option parsers and checks the commands share: each turns a flag's text into a typed value
 * at the boundary, or a usage error (exit 2) that names what it expected.
 */
import { stat } from "node:fs/promises";
import type { Command } from "commander";
import { isForm, type Form } from "../core/layout.ts";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { isEncodingLabel } from "../data/sources/decode-source.ts";
import { DEFAULT_MAX_FIELD_LENGTH, type ReadOptions } from "../data/read-options.ts";
import { port } from "../serve/listen-options.ts";
import { InvalidValue } from "../common/messages/invalid-value.ts";

export const ENCODING_HELP = "the encoding of CSV sources, such as windows-1250 (default: UTF-8)";
const MAX_FIELD_LENGTH_HELP = "the longest a text field may be, in characters";
const FOLLOW_OUTSIDE_HELP = "follow symbolic links that lead outside --data (default: skip them, with a warning)";

export function positiveInt(text: string): number {
  const n = Number(text);
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidValue(msg("invalid.positive-integer", { text }));
  return n;
}

export function encodingLabel(text: string): string {
  if (!isEncodingLabel(text)) throw new InvalidValue(msg("invalid.encoding", { text }));
  return text;
}

export function threadCount(text: string): number {
  return text === "0" ? 0 : positiveInt(text);
}

/** `host:port` (`[::1]:8080` for IPv6), as curl's --connect-to names an address. */
export function connectTo(text: string): { host: string; port: number } {
  const colon = text.lastIndexOf(":");
  const host = text.slice(0, Math.max(colon, 0)).replace(/^\[(.*)\]$/, "$1");
  if (colon < 0 || host === "") throw new InvalidValue(msg("invalid.connect", { text }));
  return { host, port: port(text.slice(colon + 1)) };
}

export function limitList(text: string): number[] {
  // No page pre-rendered: every request derived from the record chunks.
  if (text.trim() === "none") return [];
  const limits = [...new Set(text.split(",").map((part) => positiveInt(part.trim())))];
  return limits.sort((a, b) => a - b);
}

export function formList(text: string): Form[] {
  const forms = text.split(",").map((part) => part.trim());
  const bad = forms.find((form) => !isForm(form));
  if (bad !== undefined) throw new InvalidValue(msg("invalid.form", { form: bad }));
  return [...new Set(forms)] as Form[];
}

export function baseUrl(text: string): string {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new InvalidValue(msg("invalid.url", { text }));
  }
  if (url.protocol !== "http:" && url.protocol !== "https:") throw new InvalidValue(msg("invalid.http", { text }));
  // DRF's links are the origin plus the path; a trailing slash would double it.
  let end = text.length;
  while (end > 0 && text[end - 1] === "/") end--;
  return text.slice(0, end);
}

/**
 * The base URL as an origin only, or a build-time refusal in one line. The API's paths are the
 * contract's (/api/subjekti/, /openapi.json, /schema/…): the router answers them at the root, and
 * the hosts route them there from files that are not generated per build (netlify.toml's edge
 * function paths, wrangler.jsonc's routes, the preview), so links under a path would each answer
 * 404. A sub-path is refused rather than built dead; docs/production.md says what to do instead.
 */
export function originOnly(base: string): string {
  const url = new URL(base);
  if (url.pathname === "/" && url.search === "" && url.hash === "" && url.username === "" && url.password === "") return base;
  throw failure("BAD_BASE_URL", msg("error.base-url-path", { base, origin: url.origin }));
}

/** The flags of every command that reads the sources the way a build does. */
export interface ReadFlags {
  readonly data: string;
  readonly strict: boolean;
  readonly encoding?: string;
  readonly allProblems: boolean;
  readonly maxFieldLength: number;
  readonly followOutside: boolean;
}

/** The options of every command that reads the sources the way a build does. */
export function withReadOptions(command: Command): Command {
  return command
    .option("--strict", "treat warnings as errors (spreadsheet forms included)", false)
    .option("--encoding <label>", ENCODING_HELP, encodingLabel)
    .option("--all-problems", "print every problem, not the first few of each kind", false)
    .option("--max-field-length <n>", MAX_FIELD_LENGTH_HELP, positiveInt, DEFAULT_MAX_FIELD_LENGTH)
    .option("--follow-outside", FOLLOW_OUTSIDE_HELP, false);
}

/** The read options of a command's flags, in the shape the readers take. */
export function readOptionsOf(flags: ReadFlags): ReadOptions {
  return {
    dataDir: flags.data,
    strict: flags.strict,
    allProblems: flags.allProblems,
    maxFieldLength: flags.maxFieldLength,
    followOutside: flags.followOutside,
    ...(flags.encoding === undefined ? {} : { encoding: flags.encoding }),
  };
}

/** `--data` must be a directory (a missing one is reported as the data's problem), `--out` a directory or nothing yet. */
export async function checkDirs(dirs: { readonly data: string; readonly out?: string }): Promise<void> {
  const isFile = async (path: string): Promise<boolean> => (await stat(path).catch(() => undefined))?.isDirectory() === false;
  if (await isFile(dirs.data)) throw failure("DATA_NOT_DIR", msg("error.data-is-file", { data: dirs.data }));
  if (dirs.out !== undefined && (await isFile(dirs.out))) throw failure("OUT_NOT_DIR", msg("error.out-is-file", { out: dirs.out }));
}
