/**
 * `subjekti sync`, the change feed's reference client: keeps a local NDJSON copy of the list in
 * step with a site. The first run downloads the snapshot; later runs apply the diffs after the
 * local sequence in order, each verified by hashing its result against the diff's `to_version`, and
 * fall back to the snapshot when a diff is missing, the local copy is older than the oldest diff
 * kept, or anything does not verify. The copy is replaced by rename (never half-applied) and its
 * sequence and version kept beside it (`<file>.sync.json`); the copy is hashed again before a diff
 * is applied to it, so a hand-edited file is replaced, not patched.
 */
import { createHash } from "node:crypto";
import { createReadStream } from "node:fs";
import { readFile, rename, rm, writeFile } from "node:fs/promises";
import { basename, dirname } from "node:path";
import { Readable } from "node:stream";
import { SubjektiError } from "../core/errors.ts";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { failureCode, isCertificateCode, type Trust, trustedGet } from "../common/trusted-fetch.ts";
import { applyChanges, readDiff, type Tally } from "./apply-diff.ts";
import { diffSnapshots } from "./diff-snapshots.ts";
import { diffName, type FeedState, parseState, STATE_PATH } from "./feed-format.ts";
import { HashedWriter, writeHashed } from "./hashed-writer.ts";
import { LineCursor } from "../common/line-cursor.ts";
import { removeLeftovers } from "../common/remove-leftovers.ts";

export interface SyncReport {
  readonly url: string;
  /** The local sequence before, null when there was no verified copy. */
  readonly from: number | null;
  readonly to: number;
  readonly version: string;
  readonly added: number;
  readonly removed: number;
  readonly changed: number;
  /** Why the snapshot was downloaded, or null when the diffs were applied (or nothing was to do). */
  readonly snapshot: string | null;
}

interface Local {
  readonly url: string;
  readonly sequence: number;
  readonly version: string;
}

export async function syncMirror(site: string, file: string, trust: Trust = {}): Promise<SyncReport> {
  const fetchUrl = trustedGet(trust);
  const get: Get = (url) => getOrSay(fetchUrl, url);
  const stateUrl = new URL(STATE_PATH, site.endsWith("/") ? site : `${site}/`);
  const state = parseStateAt(await text(stateUrl, get), stateUrl);
  const local = await readLocal(file);
  const from = local?.sequence ?? null;
  const report = (tally: Tally, snapshot: string | null): SyncReport => ({
    url: site,
    from,
    to: state.sequence,
    version: state.version,
    ...tally,
    snapshot,
  });
  if (local !== null && local.version === state.version) return report({ added: 0, removed: 0, changed: 0 }, null);

  const temp = `${file}.tmp-${process.pid}`;
  // What a sync killed before left beside the copy.
  await removeLeftovers(dirname(file), (name) => name.startsWith(`${basename(file)}.`));
  try {
    let why: string;
    if (local === null) why = "no verified local copy";
    else if (local.sequence >= state.sequence)
      why = `the local sequence ${local.sequence} is not behind the site's ${state.sequence}: another feed`;
    else if (local.sequence + 1 < state.oldest)
      why = `the local sequence ${local.sequence} is older than the oldest diff kept (${state.oldest})`;
    else {
      const applied = await applyDiffs(stateUrl, state, file, local, temp, get);
      if (typeof applied !== "string") {
        await commit(file, temp, { url: site, sequence: state.sequence, version: state.version });
        return report(applied, null);
      }
      why = applied;
    }
    const tally = await downloadSnapshot(stateUrl, state, temp, local === null ? null : file, get);
    await commit(file, temp, { url: site, sequence: state.sequence, version: state.version });
    return report(tally, why);
  } finally {
    await rm(temp, { force: true });
  }
}

/** The diffs after the local sequence applied in turn into `temp`; the tally, or why they could not be. */
async function applyDiffs(stateUrl: URL, state: FeedState, file: string, local: Local, temp: string, get: Get): Promise<Tally | string> {
  const tally: Tally = { added: 0, removed: 0, changed: 0 };
  // Two files take turns: each diff reads the last result and writes the other.
  const turns = [`${temp}.a`, `${temp}.b`];
  let current = file;
  let version = local.version;
  try {
    for (let sequence = local.sequence + 1; sequence <= state.sequence; sequence++) {
      const next = turns[sequence % 2] as string;
      const applied = await applyDiff(new URL(diffName(sequence), stateUrl), sequence, version, current, next, tally, get);
      if (applied.problem !== undefined) return applied.problem;
      current = next;
      version = applied.version;
    }
    if (version !== state.version) return `the diffs end at ${version.slice(0, 16)}…, not the site's version`;
    await rename(current, temp);
    return tally;
  } finally {
    for (const turn of turns) await rm(turn, { force: true });
  }
}

/** One diff applied to `current` into `next`: the version it gave (verified), or why it was not applied. */
async function applyDiff(
  url: URL,
  sequence: number,
  version: string,
  current: string,
  next: string,
  tally: Tally,
  get: Get,
): Promise<{ version: string; problem?: undefined } | { problem: string }> {
  const response = await get(url);
  if (response.status !== 200 || response.body === null) return { problem: `the diff ${url.href} answered ${response.status}` };
  try {
    const { head, changes } = await readDiff(
      await LineCursor.open(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>)),
    );
    if (head.sequence !== sequence || head.from_version !== version)
      return { problem: `the diff ${url.href} does not apply to version ${version.slice(0, 16)}…` };
    const out = new HashedWriter(next);
    try {
      await applyChanges(await LineCursor.open(createReadStream(current)), changes, tally, out);
    } catch (error) {
      out.destroy();
      throw error;
    }
    const written = await out.end();
    if (written !== head.to_version) return { problem: `the diff ${url.href} does not give its to_version (got ${written.slice(0, 16)}…)` };
    return { version: written };
  } catch (error) {
    if (error instanceof SubjektiError) throw error;
    return { problem: `the diff ${url.href} cannot be read: ${(error as Error).message}` };
  }
}

/** The snapshot into `temp`, verified; the tally against the old copy (when there is one). */
async function downloadSnapshot(stateUrl: URL, state: FeedState, temp: string, old: string | null, get: Get): Promise<Tally> {
  const url = new URL(state.snapshot.url, stateUrl);
  const response = await get(url);
  if (response.status !== 200 || response.body === null)
    throw failure("SYNC_UNVERIFIED", msg("error.sync-snapshot-status", { url: url.href, status: response.status }));
  const written = (await writeHashed(Readable.fromWeb(response.body as import("node:stream/web").ReadableStream<Uint8Array>), temp)).sha256;
  if (written !== state.snapshot.sha256 || written !== state.version) {
    throw failure(
      "SYNC_UNVERIFIED",
      msg("error.sync-mismatch", { url: url.href, written: written.slice(0, 16), version: state.version.slice(0, 16) }),
    );
  }
  const tally: Tally = { added: 0, removed: 0, changed: 0 };
  const before = await LineCursor.open(old === null ? Readable.from([]) : createReadStream(old));
  for await (const change of diffSnapshots(before, await LineCursor.open(createReadStream(temp)))) {
    if (change.op === "delete") tally.removed++;
    else if (change.existed) tally.changed++;
    else tally.added++;
  }
  return tally;
}

async function hashFile(path: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The copy renamed into place, then what it holds beside it: a crash between leaves a copy the next run re-verifies. */
async function commit(file: string, temp: string, local: Local): Promise<void> {
  await rename(temp, file);
  await writeFile(`${file}.sync.json.tmp-${process.pid}`, `${JSON.stringify(local)}\n`);
  await rename(`${file}.sync.json.tmp-${process.pid}`, `${file}.sync.json`);
}

/** The local copy's sequence and version, when its bytes still hash to that version. */
async function readLocal(file: string): Promise<Local | null> {
  const text = await readFile(`${file}.sync.json`, "utf8").catch(() => null);
  if (text === null) return null;
  let local: Local;
  try {
    local = JSON.parse(text) as Local;
  } catch {
    return null;
  }
  if (typeof local.version !== "string" || !Number.isSafeInteger(local.sequence)) return null;
  const actual = await hashFile(file).catch(() => null);
  return actual === local.version ? local : null;
}

/** A GET of the site's, answered or refused as this sync's trust says. */
type Get = (url: URL) => Promise<Response>;

/** A GET that answers, or one line saying why not. */
async function getOrSay(fetchUrl: Get, url: URL): Promise<Response> {
  try {
    return await fetchUrl(url);
  } catch (error) {
    const cause = (error as { cause?: { message?: string } }).cause;
    const detail = failureCode(error) ?? cause?.message ?? String(error);
    // A certificate this client does not trust: the fix is --ca or --insecure, not another site.
    if (isCertificateCode(failureCode(error)))
      throw failure("SYNC_UNREACHABLE", msg("error.untrusted-certificate", { url: url.href, detail }));
    throw failure("SYNC_UNREACHABLE", msg("error.sync-unreachable", { url: url.href, detail }));
  }
}

async function text(url: URL, get: Get): Promise<string> {
  const response = await get(url);
  if (response.status !== 200) throw failure("SYNC_NO_FEED", msg("error.sync-no-feed", { url: url.href, status: response.status }));
  return response.text();
}

function parseStateAt(body: string, url: URL): FeedState {
  const state = parseState(body);
  if (typeof state === "string") throw failure("SYNC_BAD_STATE", msg("error.sync-bad-state", { url: url.href, detail: state }));
  return state;
}
