/**
 * The built site on this machine as the core's handler reaches a host's files: what it answers
 * from these files is what a deployment of them must answer. Read once, never followed: the check
 * compares one build.
 */
import { readFile } from "node:fs/promises";
import { join, resolve, sep } from "node:path";
import type { SiteHost } from "../core/answer-request.ts";
import { describeError } from "../core/describe-error.ts";
import { MANIFEST_PATH } from "../core/layout.ts";
import { type Manifest, readManifest } from "../core/manifest.ts";
import { failure, msg } from "../common/messages/message.ts";

/** The manifest of the site in `dir`; throws SubjektiError with a hint when there is no usable site. */
export async function readLocalManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_PATH), "utf8");
  } catch (error) {
    throw failure("NO_SITE", msg("error.no-built-site", { dir, detail: describeError(error) }));
  }
  const state = readManifest(text);
  if ("problem" in state) throw failure("NO_SITE", msg("error.unusable-site", { dir, problem: state.problem, again: true }));
  return state.manifest;
}

/** The site in `dir` with `manifest`, its files read from disk (records chunks kept once read). */
export function localSite(dir: string, manifest: Manifest): SiteHost<Uint8Array> {
  const root = resolve(dir);
  const chunks = new Map<string, Promise<string | null>>();
  return {
    manifest: () => Promise.resolve({ manifest }),
    refresh: () => Promise.resolve(),
    async readPage(path) {
      const bytes = await readInside(root, path);
      return bytes === null ? null : { body: bytes, length: bytes.byteLength };
    },
    readChunk(path) {
      let text = chunks.get(path);
      if (text === undefined) {
        text = readInside(root, path).then((bytes) => (bytes === null ? null : bytes.toString("utf8")));
        chunks.set(path, text);
      }
      return text;
    },
    fix: "Rebuild it.",
  };
}

/** A manifest-named file's bytes; null when it is missing or its name would leave the site. */
async function readInside(root: string, path: string): Promise<Buffer | null> {
  const absolute = resolve(root, path);
  if (!absolute.startsWith(root + sep)) return null;
  try {
    return await readFile(absolute);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return null;
    throw error;
  }
}
