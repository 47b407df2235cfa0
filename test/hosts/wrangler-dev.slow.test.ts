/**
 * The request table through a real Workers runtime: `wrangler dev` (test/hosts/wrangler-dev.ts)
 * running src/cloudflare/worker.ts in workerd behind the assets router of wrangler.jsonc, serving
 * the fixture site built into a temp directory.
 */
import { afterAll, beforeAll, describe } from "vitest";
import { buildFixture } from "./fixture-site.ts";
import type { Host } from "./hosts.ts";
import { sendRaw } from "./raw-http.ts";
import { DRF_SEARCH_CASES } from "./request-cases.ts";
import { runRequestCases } from "./run-cases.ts";
import { startWranglerDev, type WranglerDev } from "./wrangler-dev.ts";

let site: Awaited<ReturnType<typeof buildFixture>> | undefined;
let dev: WranglerDev | undefined;

beforeAll(async () => {
  site = await buildFixture();
  dev = await startWranglerDev(site.dir);
});

afterAll(async () => {
  await dev?.stop();
  await site?.remove();
});

function worker(): Host {
  const { port } = dev ?? {};
  if (port === undefined) throw new Error("wrangler dev did not start");
  return {
    name: "wrangler",
    send: (method, target, headers, encoding) => sendRaw(port, method, target, { Host: "testserver", ...headers }, encoding),
    stop: async () => {},
  };
}

describe("the Worker under wrangler dev (workerd)", () => runRequestCases("wrangler", worker));
describe("DRF search goldens: the Worker under wrangler dev", () => runRequestCases("wrangler", worker, undefined, DRF_SEARCH_CASES));
