/**
 * `subjekti check`: a deployment verified against the site it was built as. Each request of the
 * plan (plan-probes.ts) is answered twice: by the core's own handler over the local files
 * (answerRequest, as every host answers), and by the deployment over HTTP; the two are compared
 * status, contract headers and bytes (compare-answer.ts). Nothing of the contract is written here.
 */
import { answerRequest, type SendAnswer, type SiteHost } from "../core/answer-request.ts";
import { describeError } from "../core/errors.ts";
import { chunkPath } from "../core/layout.ts";
import type { Manifest } from "../core/manifest.ts";
import { msg } from "../common/messages/message.ts";
import { failure } from "../common/messages/translate.ts";
import { forEachBounded } from "../common/for-each-bounded.ts";
import { compareAnswer } from "./compare-answer.ts";
import { readSiteManifest } from "../common/read-site-manifest.ts";
import { nodeSite } from "../common/node-site.ts";
import { type PlanOptions, planProbes, type Probe, type ProbeKind } from "./plan-probes.ts";
import type { CheckReport } from "./check-report.ts";
import { type Failure, type ProbeResult, ProbeResults } from "./probe-results.ts";
import { checkDownloads } from "./check-downloads.ts";
import {
  type ConnectTo,
  connectionHint,
  isConnectionError,
  maxAnswerBytes,
  RequestBound,
  sender,
  type Sender,
  type TrustOptions,
} from "./send-request.ts";

/**
 * The header the nginx configuration of `subjekti nginx` adds to every answer it sends from a file
 * (its value: `file`), and to nothing it hands to `subjekti serve`: the check counts the answers
 * that should have come from a file and did not (a configuration older than the build).
 */
export const SOURCE_HEADER = "x-subjekti-source";

export interface CheckOptions {
  /** The deployment: its origin (any path is ignored: the API lives at /api/subjekti/). */
  readonly url: string;
  /** The built site the deployment should answer as. */
  readonly dir: string;
  /** Requests in flight at once. */
  readonly concurrency: number;
  /** Check this many pre-rendered pages (a seeded sample) instead of all. */
  readonly sample?: number | undefined;
  readonly seed: number;
  /** Pre-rendered pages asked with If-None-Match (304s, no bodies): the build and the routing, not each file's bytes. */
  readonly etags?: boolean | undefined;
  /** Connect here instead of the URL's host; the Host header and the links stay the URL's. */
  readonly connect?: ConnectTo | undefined;
  /** Milliseconds one request may take, its whole answer received. */
  readonly timeoutMs: number;
  /** Milliseconds the whole check may take: past them, the requests in flight are cut and the rest not sent, the downloads' too. */
  readonly deadlineMs?: number | undefined;
  /** How an https deployment's certificate is checked (--ca, --insecure). */
  readonly trust?: TrustOptions | undefined;
  /** Called as requests settle. */
  readonly progress?: ((done: number, total: number) => void) | undefined;
}

/** The list's first subject, to look it up by each key and search for it (undefined for an empty list). */
async function firstSubject(site: SiteHost, manifest: Manifest): Promise<PlanOptions["subject"]> {
  const path = chunkPath(manifest, 0);
  const text = path === null ? null : await site.readChunk(path);
  if (text === null || text === "") return undefined;
  const end = text.indexOf("\n");
  const line = end === -1 ? text : text.slice(0, end);
  const record = JSON.parse(line) as {
    id: number;
    jedinstvena_oznaka: string;
    oib: string;
    naziv_subjekta: string;
    institucija_grad: string;
  };
  return { id: record.id, code: record.jedinstvena_oznaka, oib: record.oib, name: record.naziv_subjekta, town: record.institucija_grad };
}

/** Checks the deployment at `options.url` against the site in `options.dir`. */
export async function checkSite(options: CheckOptions): Promise<CheckReport> {
  const origin = deploymentOrigin(options.url);
  const manifest = await readSiteManifest(options.dir);
  // One build compared: its manifest is read once, never followed.
  const fixed = { current: () => Promise.resolve({ manifest }), refresh: () => Promise.resolve() };
  const site = nodeSite(options.dir, fixed, { fix: "Rebuild it." });
  const probes = planProbes(manifest, {
    sample: options.sample,
    seed: options.seed,
    etags: options.etags,
    subject: await firstSubject(site, manifest),
  });
  const started = performance.now();
  // Counted in the plan's order, so the summary lists the kinds the same way on every run.
  const checked: Partial<Record<ProbeKind, number>> = {};
  for (const probe of probes) checked[probe.kind] = (checked[probe.kind] ?? 0) + 1;
  const results = new ProbeResults(probes, origin.origin, origin.origin === new URL(manifest.baseUrl).origin);
  const live = sender(origin, options.concurrency, options.timeoutMs, options.connect, options.trust);
  /** The first connection error: every request after it is skipped. */
  let unreachable: unknown = undefined;
  const downloadFailures: Failure[] = [];
  /** The build the nginx configuration names, when it is not this one. */
  let configured: string | undefined;
  let pastDeadline = false;
  let unchecked = 0;
  const deadlineMs = options.deadlineMs;
  const deadline =
    deadlineMs === undefined
      ? undefined
      : setTimeout(() => {
          pastDeadline = true;
          live.abort(new RequestBound("deadline", `cut at the deadline of ${deadlineMs} ms`));
        }, deadlineMs);
  try {
    await forEachBounded([...probes.keys()], options.concurrency, async (index) => {
      if (pastDeadline) unchecked++;
      if (unreachable !== undefined || pastDeadline) return;
      const result = await checkProbe(probes[index] as Probe, origin, site, live);
      if ("deadline" in result) unchecked++;
      else if ("unreachable" in result) unreachable ??= result.unreachable;
      else {
        const answered = results.add(index, result);
        options.progress?.(answered, probes.length);
      }
    });
    if (unreachable === undefined) {
      const downloads = await checkDownloads(manifest.downloads ?? [], live);
      if (downloads.requests > 0) checked.download = downloads.requests;
      unchecked += downloads.unchecked;
      configured = [...downloads.nginxSites].find((hash) => hash !== manifest.hash);
      unreachable = downloads.unreachable;
      for (const { path, differences } of downloads.differing)
        downloadFailures.push({ kind: "download", method: "GET", url: `${origin.origin}${path}`, differences });
    }
  } finally {
    clearTimeout(deadline);
    live.close();
  }
  if (unreachable !== undefined) throw unreachableFailure(origin, options.connect, unreachable);
  const failures = [...results.failures(), ...downloadFailures];
  const total = probes.length + (checked.download ?? 0);
  return {
    origin: origin.origin,
    dir: options.dir,
    count: manifest.count,
    baseUrl: manifest.baseUrl,
    checked,
    total,
    // A request cut at the deadline was not checked: it neither matched nor differed.
    matched: total - failures.length - (pastDeadline ? unchecked : 0),
    failures,
    // A configuration that names another build is nginx's, though none of its files is left to mark an answer.
    fromFiles: results.fromFiles(configured !== undefined),
    withoutQuery: results.withoutQuery(),
    staleNginx: configured === undefined ? null : { configured, built: manifest.hash },
    seconds: (performance.now() - started) / 1000,
    deadline: pastDeadline && deadlineMs !== undefined ? { ms: deadlineMs, unchecked } : null,
  };
}

/** The deployment could not be reached: where, why, and what to look at. */
function unreachableFailure(origin: URL, connect: ConnectTo | undefined, error: unknown): Error {
  return failure(
    "UNREACHABLE",
    msg("error.unreachable", {
      where: origin.origin,
      connect: connect === undefined ? undefined : `${connect.host}:${connect.port}`,
      detail: describeError(error),
      hint: connectionHint(error),
    }),
  );
}

/** The origin of the deployment's URL; a usage error when it is no http(s) URL. */
function deploymentOrigin(url: string): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw failure("BAD_URL", msg("error.not-url", { url }));
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw failure("BAD_URL", msg("error.not-http", { url }));
  return new URL(parsed.origin);
}

/**
 * The differences between what the built site answers to `probe` and what the deployment answered,
 * with the answer's SOURCE_HEADER; or the connection error that kept it from answering at all.
 */
async function checkProbe(
  probe: Probe,
  origin: URL,
  site: SiteHost<Uint8Array>,
  live: Sender,
): Promise<ProbeResult | { unreachable: unknown } | { deadline: true }> {
  const headers = { ...probe.headers };
  if (probe.ifNoneMatchExpected === true) {
    const page = await expectedAnswer({ ...probe, method: "GET" }, headers, origin, site);
    const etag = page.headers.find(([name]) => name === "ETag")?.[1];
    if (etag === undefined) throw new Error(`the built site gives no ETag for ${probe.target}`);
    headers["If-None-Match"] = etag;
  }
  const expected = await expectedAnswer(probe, headers, origin, site);
  const expectedBytes = expected.body instanceof Uint8Array ? expected.body.byteLength : 0;
  try {
    const answer = await live.send(probe.method, probe.target, headers, maxAnswerBytes(expectedBytes));
    const differences = compareAnswer(expected, answer);
    const source = answer.headers.get(SOURCE_HEADER);
    // A wrong answer that is the path's own without the query: the host never handed the query to the router.
    const path = probe.target.split("?")[0] ?? "";
    if (differences.length === 0 || path === probe.target || probe.method !== "GET") return { differences, source };
    const bare = await expectedAnswer({ ...probe, target: path }, headers, origin, site);
    return { differences, source, withoutQuery: compareAnswer(bare, answer).length === 0 };
  } catch (error) {
    if (error instanceof RequestBound && error.kind === "deadline") return { deadline: true };
    if (isConnectionError(error)) return { unreachable: error };
    const got =
      error instanceof RequestBound && error.kind === "size" ? `${describeError(error)} (${expectedBytes} expected)` : describeError(error);
    return { differences: [{ what: "answer", expected: `status ${expected.status}`, got }], source: undefined };
  }
}

/** What the core answers to this request on `origin` from the built site's files. */
async function expectedAnswer(
  probe: Probe,
  headers: Readonly<Record<string, string>>,
  origin: URL,
  site: SiteHost<Uint8Array>,
): Promise<SendAnswer> {
  const answer = await answerRequest(
    { method: probe.method, target: probe.target, scheme: origin.protocol.slice(0, -1), host: origin.host, headers: new Headers(headers) },
    site,
  );
  if (answer.kind !== "send") throw new Error(`the core leaves ${probe.target} to the static site; subjekti check asks only the API`);
  // The built site itself cannot answer: there is nothing to compare against.
  if (answer.status === 503)
    throw failure(
      "NO_SITE",
      msg("error.site-cannot-answer", {
        target: probe.target,
        detail: answer.body instanceof Uint8Array ? new TextDecoder().decode(answer.body) : "503",
      }),
    );
  return answer;
}
