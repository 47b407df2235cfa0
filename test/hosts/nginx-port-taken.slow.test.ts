/**
 * The nginx the tests start is the nginx that answers: a process that takes the picked port between
 * the pick and nginx's bind makes runNginx fail, naming that process, where a connect alone would
 * have sent every request of the test to it. Out of `npm run test:unit` (named .slow.test.ts):
 * nginx retries a refused bind for a few seconds before it exits.
 */
import { createServer, type Server } from "node:net";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { useTempDir } from "../file-trees.ts";
import { freePort, stopChild } from "./hosts.ts";
import { NGINX, REQUIRE_NGINX, runNginx, writeNginxConf } from "./nginx-host.ts";
import { portListeners } from "./port-owner.ts";

const work = useTempDir();

/** A server (not nginx) listening on `port` of 127.0.0.1 until closed. */
function hold(port: number): Promise<Server> {
  return new Promise((done, fail) => {
    // Connected to and dropped at once by runNginx's check: the reset is expected.
    const server = createServer((socket) => socket.on("error", () => socket.destroy()));
    server.once("error", fail);
    server.listen(port, "127.0.0.1", () => done(server));
  });
}

const answering = (port: number): string => `server { listen 127.0.0.1:${port}; location / { return 200 "nginx\\n"; } }`;

describe.skipIf(NGINX === null && !REQUIRE_NGINX)("runNginx", () => {
  it("resolves once nginx itself listens on the port", async () => {
    const port = await freePort();
    const prefix = join(work.path, "free");
    await writeNginxConf(prefix, [answering(port)]);
    const nginx = await runNginx(prefix, [port]);
    try {
      expect((await portListeners(port)).map((listener) => listener.pid)).toContain(nginx.pid);
    } finally {
      await stopChild(nginx);
    }
  });

  it("fails, naming the holder, when another process took the port before nginx bound it", { timeout: 30_000 }, async () => {
    const port = await freePort();
    const prefix = join(work.path, "taken");
    await writeNginxConf(prefix, [answering(port)]);
    const taken = await hold(port);
    const started = runNginx(prefix, [port]);
    try {
      await expect(started).rejects.toThrow(new RegExp(`Address already in use[\\s\\S]*port ${port} is held by pid ${process.pid}: `));
    } finally {
      // An nginx wrongly taken as started is stopped before the port is let go (it would bind it then).
      await started.then(stopChild, () => undefined);
      await new Promise((done) => taken.close(done));
    }
  });
});
