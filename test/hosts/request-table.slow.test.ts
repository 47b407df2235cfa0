/**
 * The one request table (request-cases.ts) against three hosts of one fixture site built once:
 * the edge function in-process, the preview over HTTP, the edge function under real Deno; then,
 * on the same three, the search goldens (DRF on PostgreSQL searching, filtering and ordering).
 */
import { afterAll, beforeAll, describe } from "vitest";
import { buildFixture } from "./fixture-site.ts";
import { denoHost, edgeHost, type Host, previewHost } from "./hosts.ts";
import { DRF_SEARCH_CASES } from "./request-cases.ts";
import { runRequestCases } from "./run-cases.ts";

let site: Awaited<ReturnType<typeof buildFixture>>;
const hosts: Partial<Record<Host["name"], Host>> = {};
const use = (name: Host["name"]) => (): Host => {
  const host = hosts[name];
  if (host === undefined) throw new Error(`the ${name} host did not start`);
  return host;
};

beforeAll(async () => {
  site = await buildFixture();
  hosts.edge = edgeHost(site.dir);
  [hosts.preview, hosts.deno] = await Promise.all([previewHost(site.dir), denoHost(site.dir)]);
});

afterAll(async () => {
  await Promise.all(Object.values(hosts).map((host) => host.stop()));
  await site?.remove();
});

describe("edge function in-process (Request -> Response)", () => runRequestCases("edge", use("edge")));
describe("preview server over HTTP", () => runRequestCases("preview", use("preview")));
describe("edge function under real Deno", () => runRequestCases("deno", use("deno")));

describe("DRF search goldens: edge function in-process", () => runRequestCases("edge", use("edge"), undefined, DRF_SEARCH_CASES));
describe("DRF search goldens: preview server over HTTP", () => runRequestCases("preview", use("preview"), undefined, DRF_SEARCH_CASES));
describe("DRF search goldens: edge function under real Deno", () => runRequestCases("deno", use("deno"), undefined, DRF_SEARCH_CASES));
