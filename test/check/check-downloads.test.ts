/**
 * The downloads' check at the check's deadline: the download asked when the deadline comes is cut
 * and counted unchecked, not listed as a difference, and the downloads after it are not asked at
 * all (before, each was sent and waited out its --timeout against a server that never answers).
 * The deadline is reached by construction: the server aborts the sender, as checkSite's deadline
 * does, the moment the first download's request reaches it.
 */
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { checkDownloads } from "../../src/check/check-downloads.ts";
import { RequestBound, type Sender, sender } from "../../src/check/send-request.ts";
import { contentNamedPath, type Download, type DownloadFormat, downloadPath } from "../../src/core/download-files.ts";

/** A download as a manifest lists it (its bytes never asked for: the server answers nothing). */
function download(format: DownloadFormat): Download {
  const sha256 = "0".repeat(64);
  return { format, path: downloadPath(format), immutablePath: contentNamedPath(format, sha256), bytes: 3, sha256 };
}

describe("checkDownloads", () => {
  it("a server that never answers: the download in flight is cut unchecked, the rest are not asked", async () => {
    const downloads = [download("csv"), download("ndjson")];
    const asked: string[] = [];
    let live: Sender | undefined;
    const server = createServer((req) => {
      asked.push(req.url ?? "");
      // The deadline comes once: at the first download asked.
      if (asked.length === 1) live?.abort(new RequestBound("deadline", "cut at the deadline of 1000 ms"));
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    // A timeout longer than the test waits: a download asked after the deadline would be seen, then wait it out.
    live = sender(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), 4, 10_000);
    try {
      const checked = await checkDownloads(downloads, live);
      expect(asked).toEqual([downloads[0]?.path]);
      expect(checked).toMatchObject({ requests: 4, unchecked: 4, differing: [], unreachable: undefined });
    } finally {
      live.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });

  it("a connection reset: the deployment is unreachable, and no later download is asked", async () => {
    const downloads = [download("csv"), download("ndjson")];
    const asked: string[] = [];
    const server = createServer((req) => {
      asked.push(req.url ?? "");
      req.socket.resetAndDestroy();
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const live = sender(new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`), 4, 10_000);
    try {
      const checked = await checkDownloads(downloads, live);
      expect(asked).toEqual([downloads[0]?.path]);
      expect((checked.unreachable as NodeJS.ErrnoException).code).toBe("ECONNRESET");
      expect(checked).toMatchObject({ requests: 1, unchecked: 0, differing: [] });
    } finally {
      live.close();
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
