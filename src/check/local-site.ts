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
import { SubjektiError } from "../core/subjekti-error.ts";

/** The manifest of the site in `dir`; throws SubjektiError with a hint when there is no usable site. */
export async function readLocalManifest(dir: string): Promise<Manifest> {
  let text: string;
  try {
    text = await readFile(join(dir, MANIFEST_PATH), "utf8");
  } catch (error) {
    throw new SubjektiError("NO_SITE", `${dir} holds no built site (${describeError(error)}): pass --dir <the site that was deployed>, or run \`npm run build\` first`);
  }
  const state = readManifest(text);
  if ("problem" in state) throw new SubjektiError("NO_SITE", `${dir} has no usable site (${state.problem}): run \`npm run build\` again`);
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
