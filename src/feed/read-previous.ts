/**
 * Where the previous version of the feed comes from. A site built in CI has no `dist/` of the last
 * deploy, so `--previous <url|dir>` names the live site (or a directory holding one); else, and
 * when that has no feed yet, the output directory itself. Whatever it is, its snapshot must hash
 * to the version its state names: a feed is never continued from a state it cannot verify. Every
 * file of it is input: the state is validated in every field, each kept diff validated against
 * the state's history and written again by us (copy-diff.ts), and a site is read within bounds of
 * size, count and time (feed-limits.ts, read-bounded.ts), all before the build writes anything.
 */
import { createHash } from "node:crypto";
import { createReadStream, createWriteStream } from "node:fs";
import { copyFile, open, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { filePieces } from "../common/read-into.ts";
import { makeScratchDir, type ScratchDir } from "../common/scratch-dir.ts";
import { copyDiff } from "./copy-diff.ts";
import { diffName, type FeedEntry, type FeedState, keptDiffs, parseState, STATE_PATH } from "./feed-format.ts";
import { DEFAULT_LIMITS, type FeedLimits, MAX_STATE_BYTES, maxDiffBytes } from "./feed-limits.ts";
import type { Trust } from "../common/trusted-fetch.ts";
import type { BoundedReader } from "./read-bounded.ts";

export interface PreviousFeed {
  readonly state: FeedState;
  /** Where it was read, for messages. */
  readonly from: string;
  /** A local file holding the verified snapshot (it stays until dispose). */
  readonly snapshot: string;
  /** A local file holding a kept diff as validated and written again, for a feed carried into an output directory that lacks them; null when the source lacks it. */
  diff(sequence: number): string | null;
  /** True when the previous feed's files sit in the output directory already (a rebuild in place). */
  readonly inPlace: boolean;
  dispose(): Promise<void>;
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
  { limits = DEFAULT_LIMITS, trust = {}, intact = false }: PreviousOptions = {},
): Promise<PreviousFeed | null> {
  if (source !== undefined) {
    const found = isUrl(source) ? await fromUrl(source, limits, trust) : await fromDir(source, source === outDir && !keepOut);
    if (found !== null) return found;
  }
  return fromDir(outDir, !keepOut, intact);
}

export interface PreviousOptions {
  readonly limits?: FeedLimits;
  readonly trust?: Trust;
  /**
   * The output directory is as the last build left it, every file's identity as that build recorded
   * (unchanged-build.ts): its snapshot, which that build verified or wrote, is taken as it is, not
   * hashed again (286 MB at a million subjects, read cold on every rebuild). A file changed by hand
   * changes its identity, and the snapshot is verified as always.
   */
  readonly intact?: boolean;
}

/** How many snapshots were verified (read and hashed), for the tests: a counter, not the clock. */
export const snapshotChecks = { verified: 0 };

/** The refusal of a previous feed, in one line. */
const refused = (where: string, detail: string): Error => failure("FEED_REFUSED", msg("error.feed-refused", { where, detail }));

/** A local file's bytes in chunks, refused past `max`. */
async function* localFile(path: string, max: number): AsyncGenerator<Uint8Array> {
  let seen = 0;
  for await (const chunk of createReadStream(path)) {
    seen += (chunk as Buffer).length;
    if (seen > max) throw refused(path, `over the bound of ${max} bytes`);
    yield chunk as Buffer;
  }
}

/** The SHA-256 of a local file, refused past `max` bytes (read a megabyte at a time into one buffer: filePieces). */
async function hashLocalFile(path: string, max: number): Promise<string> {
  const hash = createHash("sha256");
  const file = await open(path, "r");
  try {
    let seen = 0;
    for await (const piece of filePieces(file)) {
      seen += piece.length;
      if (seen > max) throw refused(path, `over the bound of ${max} bytes`);
      hash.update(piece);
    }
    return hash.digest("hex");
  } finally {
    await file.close();
  }
}

/**
 * The kept diffs, newest first, each validated and written again into `temp`; a diff the source
 * lacks (`open` gives null) ends the history there. The sequences copied.
 */
async function copyDiffs(
  state: FeedState,
  temp: string,
  where: (sequence: number) => string,
  open: (entry: FeedEntry) => Promise<AsyncIterable<Uint8Array> | null>,
): Promise<Set<number>> {
  const copied = new Set<number>();
  for (const entry of keptDiffs(state).toReversed()) {
    const chunks = await open(entry);
    if (chunks === null) break;
    const problem = await copyDiff(chunks, entry, join(temp, diffName(entry.sequence)));
    if (problem !== undefined) throw refused(where(entry.sequence), `not the diff its state names: ${problem}`);
    copied.add(entry.sequence);
  }
  return copied;
}

async function fromDir(dir: string, inPlace: boolean, intact = false): Promise<PreviousFeed | null> {
  const statePath = join(dir, STATE_PATH);
  const text = await readState(statePath);
  if (text === null) return null;
  const state = stateOf(text, statePath);
  const feedDir = join(dir, STATE_PATH, "..");
  let snapshot = join(feedDir, state.snapshot.url);
  let copied: Set<number> | undefined;
  let temp: ScratchDir | undefined;
  try {
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
      const limit = maxDiffBytes(state.snapshot.bytes);
      copied = await copyDiffs(
        state,
        temp.path,
        (sequence) => join(feedDir, diffName(sequence)),
        async (entry) => {
          const path = join(feedDir, diffName(entry.sequence));
          const found = await stat(path).catch((error: NodeJS.ErrnoException) => {
            if (error.code === "ENOENT") return null;
            throw error;
          });
          return found === null ? null : localFile(path, limit);
        },
      );
    }
    if (!(inPlace && intact)) await verifySnapshot(snapshot, state, statePath);
  } catch (error) {
    await temp?.remove();
    throw error;
  }
  const diffs = temp?.path;
  return {
    state,
    from: dir,
    snapshot,
    inPlace,
    diff: (sequence) => (diffs !== undefined && copied?.has(sequence) === true ? join(diffs, diffName(sequence)) : null),
    dispose: async () => {
      await temp?.remove();
    },
  };
}

/** A local state file's text, read within MAX_STATE_BYTES; null when there is none. */
async function readState(path: string): Promise<string | null> {
  const file = await open(path).catch((error: NodeJS.ErrnoException) => {
    if (error.code === "ENOENT" || error.code === "ENOTDIR") return null;
    throw error;
  });
  if (file === null) return null;
  try {
    const { size } = await file.stat();
    if (size > MAX_STATE_BYTES) throw refused(path, `${size} bytes, over the bound of ${MAX_STATE_BYTES}`);
    return await file.readFile("utf8");
  } finally {
    await file.close();
  }
}

async function fromUrl(site: string, limits: FeedLimits, trust: Trust): Promise<PreviousFeed | null> {
  const { BoundedReader, FeedRefusal, trustedGet } = await urlRoad();
  const reader = new BoundedReader(limits, trustedGet(trust));
  const stateUrl = new URL(STATE_PATH, site.endsWith("/") ? site : `${site}/`);
  const temp = await makeScratchDir("feed");
  try {
    const answer = await get(reader, stateUrl);
    if (answer.status === 404) {
      await answer.body?.cancel().catch(() => undefined);
      await temp.remove();
      return null;
    }
    const state = stateOf(await reader.text(answer, stateUrl, MAX_STATE_BYTES), stateUrl.href);
    const snapshot = join(temp.path, "snapshot.ndjson");
    const snapshotUrl = new URL(state.snapshot.url, stateUrl);
    const body = reader.body(await get(reader, snapshotUrl, true), snapshotUrl, state.snapshot.bytes, true);
    await pipeline(Readable.from(body), createWriteStream(snapshot));
    await verifySnapshot(snapshot, state, stateUrl.href);
    const limit = maxDiffBytes(state.snapshot.bytes);
    const copied = await copyDiffs(
      state,
      temp.path,
      (sequence) => new URL(diffName(sequence), stateUrl).href,
      async (entry) => {
        const url = new URL(diffName(entry.sequence), stateUrl);
        const response = await get(reader, url);
        if (response.status === 404) {
          await response.body?.cancel().catch(() => undefined);
          return null;
        }
        return reader.body(response, url, limit);
      },
    );
    return {
      state,
      from: site,
      snapshot,
      inPlace: false,
      diff: (sequence) => (copied.has(sequence) ? join(temp.path, diffName(sequence)) : null),
      dispose: () => temp.remove(),
    };
  } catch (error) {
    await temp.remove();
    if (error instanceof FeedRefusal) throw refused(error.where, error.detail);
    throw error;
  }
}

/**
 * The modules of a previous feed at a URL (the bounded reader, the GETs: node:http, node:https,
 * node:tls), loaded only for one: a build that reads its previous feed from a directory does
 * without them. Loaded once; a later call answers from the module cache.
 */
async function urlRoad(): Promise<typeof import("./read-bounded.ts") & typeof import("../common/trusted-fetch.ts")> {
  const [bounded, fetching] = await Promise.all([import("./read-bounded.ts"), import("../common/trusted-fetch.ts")]);
  return { ...bounded, ...fetching };
}

/** A GET that answers, or one line saying why not; `must`: anything but 200 is an error too. */
async function get(reader: BoundedReader, url: URL, must = false): Promise<Response> {
  let response: Response;
  try {
    response = await reader.get(url);
  } catch (error) {
    const { FeedUnreachable, isCertificateCode } = await urlRoad();
    if (error instanceof FeedUnreachable) {
      const key = isCertificateCode(error.message) ? "error.untrusted-certificate" : "error.feed-unreachable";
      throw failure("FEED_UNREACHABLE", msg(key, { url: url.href, detail: error.message }));
    }
    throw error;
  }
  if (response.status !== 200 && (must || response.status !== 404)) {
    await response.body?.cancel().catch(() => undefined);
    throw failure("FEED_UNREADABLE", msg("error.feed-status", { url: url.href, status: response.status }));
  }
  return response;
}

function stateOf(text: string, where: string): FeedState {
  const state = parseState(text);
  if (typeof state === "string") throw failure("FEED_STATE_INVALID", msg("error.feed-state", { where, detail: state }));
  return state;
}

/** The snapshot must hash to the version the state names, and be the size it gives; otherwise the feed is refused, not guessed around. */
async function verifySnapshot(path: string, state: FeedState, where: string): Promise<void> {
  snapshotChecks.verified++;
  const actual = await hashLocalFile(path, state.snapshot.bytes);
  if (actual !== state.version || actual !== state.snapshot.sha256) {
    throw failure(
      "FEED_MISMATCH",
      msg("error.feed-mismatch", { where, version: state.version.slice(0, 16), snapshot: state.snapshot.url, actual: actual.slice(0, 16) }),
    );
  }
}
