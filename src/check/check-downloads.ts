/**
 * The deployment's downloads checked against the build's: each file at both its paths (the
 * stable one and the content-named one), as the manifest describes it.
 */
import { createHash } from "node:crypto";
import type { Download } from "../core/download-files.ts";
import { describeError } from "../core/errors.ts";
import type { Difference } from "./compare-answer.ts";
import { isConnectionError, maxAnswerBytes, RequestBound, type Sender } from "./send-request.ts";

/** The header the nginx configuration puts on the downloads it sends: the site hash it was generated for (nginx-config.ts SITE_HEADER). */
const SITE_HEADER = "x-subjekti-site";

/**
 * What the downloads' requests found: how many there were, how many of them the check's deadline
 * cut or kept from being sent, the paths that differ, the first connection error, and the builds
 * the answers' SITE_HEADER named (none: not the nginx configuration's).
 */
export interface DownloadsChecked {
  readonly requests: number;
  readonly unchecked: number;
  readonly nginxSites: ReadonlySet<string>;
  readonly differing: readonly { readonly path: string; readonly differences: readonly Difference[] }[];
  readonly unreachable: unknown;
}

/** Asks `live` for every path of every download and compares each answer with the manifest's. */
export async function checkDownloads(downloads: readonly Download[], live: Sender): Promise<DownloadsChecked> {
  let requests = 0;
  let unchecked = 0;
  let unreachable: unknown = undefined;
  const differing: { path: string; differences: Difference[] }[] = [];
  const nginxSites = new Set<string>();
  // A connection error ends the whole check (checkSite reports the deployment unreachable): no later download is asked.
  downloads: for (const download of downloads) {
    for (const path of [download.path, download.immutablePath]) {
      requests += 1;
      let differences: Difference[];
      try {
        const answer = await live.send("GET", path, {}, maxAnswerBytes(download.bytes));
        const site = answer.headers.get(SITE_HEADER);
        if (site !== undefined) nginxSites.add(site);
        differences = checkDownload(download, answer);
      } catch (error) {
        // Past the deadline (`live` aborted): not checked, as the pages the deadline cut are not.
        if (error instanceof RequestBound && error.kind === "deadline") {
          unchecked += 1;
          continue;
        }
        if (isConnectionError(error)) {
          unreachable ??= error;
          break downloads;
        }
        differences = [{ what: "answer", expected: "status 200", got: describeError(error) }];
      }
      if (differences.length > 0) differing.push({ path, differences });
    }
  }
  return { requests, unchecked, nginxSites, differing, unreachable };
}

/**
 * How a download as served differs from the build's: the status, its size and its SHA-256 (the
 * manifest's, which the build computed from the same bytes), and the CORS header that lets any page read it.
 */
export function checkDownload(
  download: Download,
  got: { readonly status: number; readonly headers: ReadonlyMap<string, string>; readonly body: Uint8Array },
): Difference[] {
  const differences: Difference[] = [];
  if (got.status !== 200) return [{ what: "status", expected: "200", got: String(got.status) }];
  if (got.body.length !== download.bytes)
    differences.push({ what: "bytes", expected: String(download.bytes), got: String(got.body.length) });
  const sha256 = createHash("sha256").update(got.body).digest("hex");
  if (sha256 !== download.sha256) differences.push({ what: "sha256", expected: download.sha256, got: sha256 });
  if (got.headers.get("access-control-allow-origin") !== "*")
    differences.push({
      what: "access-control-allow-origin",
      expected: "*",
      got: got.headers.get("access-control-allow-origin") ?? "(none)",
    });
  return differences;
}
