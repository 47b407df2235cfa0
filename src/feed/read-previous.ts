/**
 * Where the previous version of the feed comes from. A site built in CI has no `dist/` of the last
 * deploy, so `--previous <url|dir>` names the live site (or a directory holding one); else, and
 * when that has no feed yet, the output directory itself. Whatever it is, its snapshot must hash
 * to the version its state names: a feed is never continued from a state it cannot verify.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, readFile } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { makeScratchDir, type ScratchDir } from "../common/scratch-dir.ts";
import { failureCode, type Get, isCertificateCode, type Trust, trustedGet } from "../common/trusted-fetch.ts";
import { diffName, type FeedState, parseState, STATE_PATH } from "./feed-format.ts";

export interface PreviousFeed {
  readonly state: FeedState;
  /** Where it was read, for messages. */
  readonly from: string;
  /** A local file holding the verified snapshot (it stays until dispose). */
  readonly snapshot: string;
  /** The bytes of a kept diff, for a feed carried into an output directory that lacks them; null when the source lacks it. */
  diff(sequence: number): Promise<Uint8Array | null>;
  /** True when the previous feed's files sit in the output directory already (a rebuild in place). */
  readonly inPlace: boolean;
  dispose(): Promise<void>;
}

/** A file that is not there reads as null; any other failure is thrown. */
function ignoreMissing(error: NodeJS.ErrnoException): null {
  if (error.code === "ENOENT") return null;
  throw error;
}

const isUrl = (text: string): boolean => /^https?:\/\//i.test(text);

/**
 * The previous feed: from `source` (a URL or a directory) when it has one, else from `outDir`; null
 * when neither has one. `keepOut`: the output directory's files may vanish before the feed is
 * written (a plain site's tree is replaced whole), so its snapshot is copied aside.
 */
export async function readPreviousFeed(
  source: string | undefined,
  outDir: string,
  keepOut = false,
  trust: Trust = {},
): Promise<PreviousFeed | null> {
  if (source !== undefined) {
    const found = isUrl(source) ? await fromUrl(source, trustedGet(trust)) : await fromDir(source, source === outDir && !keepOut);
    if (found !== null) return found;
  }
  return fromDir(outDir, !keepOut);
}

async function fromDir(dir: string, inPlace: boolean): Promise<PreviousFeed | null> {
  const statePath = join(dir, STATE_PATH);
  const text = await readFile(statePath, "utf8").catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
    throw error;
  });
  if (text === null) return null;
  const state = stateOf(text, statePath);
  const feedDir = join(dir, STATE_PATH, "..");
  let snapshot = join(feedDir, state.snapshot.url);
  // Where the kept diffs are read from: beside the state, or copies (the directory may be gone by then).
  let diffs = feedDir;
  let temp: ScratchDir | undefined;
  if (!inPlace) {
    temp = await makeScratchDir("feed");
    const copy = join(temp.path, "snapshot.ndjson");
    await copyFile(snapshot, copy).catch((error: NodeJS.ErrnoException) => {
      throw failure(
        "FEED_SNAPSHOT_MISSING",
        msg("error.feed-snapshot-missing", {
          state: statePath,
          snapshot: state.snapshot.url,
          detail: error.code ?? error.message,
          changes: join(dir, "changes"),
        }),
      );
    });
    snapshot = copy;
    for (let sequence = state.oldest; sequence <= state.sequence; sequence++) {
      await copyFile(join(feedDir, diffName(sequence)), join(temp.path, diffName(sequence))).catch(ignoreMissing);
    }
    diffs = temp.path;
  }
  await verifySnapshot(snapshot, state, statePath);
  return {
    state,
    from: dir,
    snapshot,
    inPlace,
    diff: (sequence) => readFile(join(diffs, diffName(sequence))).catch(ignoreMissing),
    dispose: async () => {
      await temp?.remove();
    },
  };
}

async function fromUrl(site: string, fetchUrl: Get): Promise<PreviousFeed | null> {
  const get = (url: URL, must = false): Promise<Response> => getOrSay(fetchUrl, url, must);
  const stateUrl = new URL(STATE_PATH, site.endsWith("/") ? site : `${site}/`);
  const response = await get(stateUrl);
  if (response.status === 404) return null;
  const state = stateOf(await response.text(), stateUrl.href);
  const temp = await makeScratchDir("feed");
  try {
    const snapshot = join(temp.path, "snapshot.ndjson");
    const body = (await get(new URL(state.snapshot.url, stateUrl), true)).body;
    if (body === null) throw failure("FEED_UNREADABLE", msg("error.feed-no-body", { url: stateUrl.href }));
    await pipeline(Readable.fromWeb(body as import("node:stream/web").ReadableStream<Uint8Array>), createWriteStream(snapshot));
    await verifySnapshot(snapshot, state, stateUrl.href);
    return {
      state,
      from: site,
      snapshot,
      inPlace: false,
      diff: async (sequence) => {
        const answer = await get(new URL(diffName(sequence), stateUrl));
        return answer.status === 404 ? null : new Uint8Array(await answer.arrayBuffer());
      },
      dispose: () => temp.remove(),
    };
  } catch (error) {
    await temp.remove();
    throw error;
  }
}

/** A GET that answers, or one line saying why not (a certificate it does not trust: --ca or --insecure); `must`: anything but 200 is an error too. */
async function getOrSay(fetchUrl: Get, url: URL, must: boolean): Promise<Response> {
  let response: Response;
  try {
    response = await fetchUrl(url);
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    const detail = failureCode(error) ?? cause?.message ?? String(error);
    if (isCertificateCode(failureCode(error)))
      throw failure("FEED_UNREACHABLE", msg("error.untrusted-certificate", { url: url.href, detail }));
    throw failure("FEED_UNREACHABLE", msg("error.feed-unreachable", { url: url.href, detail }));
  }
  if (response.status !== 200 && (must || response.status !== 404)) {
    throw failure("FEED_UNREADABLE", msg("error.feed-status", { url: url.href, status: response.status }));
  }
  return response;
}

function stateOf(text: string, where: string): FeedState {
  const state = parseState(text);
  if (typeof state === "string") throw failure("FEED_STATE_INVALID", msg("error.feed-state", { where, detail: state }));
  return state;
}

/** The snapshot must hash to the version the state names; otherwise the feed is refused, not guessed around. */
async function verifySnapshot(path: string, state: FeedState, where: string): Promise<void> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  const actual = hash.digest("hex");
  if (actual !== state.version || actual !== state.snapshot.sha256) {
    throw failure(
      "FEED_MISMATCH",
      msg("error.feed-mismatch", { where, version: state.version.slice(0, 16), snapshot: state.snapshot.url, actual: actual.slice(0, 16) }),
    );
  }
}
