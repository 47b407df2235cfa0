/**
 * ALLOWED_HOSTS as Django reads it (validate_host over split_domain_port), and the 400 for a host
 * it does not name, byte for byte as Django 3.2 answered it (golden/drf-answers.json,
 * test/oracle/drf-golden.py).
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { hostDomain, isHostAllowed } from "../../src/core/allowed-hosts.ts";
import { disallowedHost } from "../../src/core/refusals.ts";
import { answerRequest, type SiteHost } from "../../src/core/answer-request.ts";

interface Golden {
  readonly disallowedHost: {
    readonly host: string;
    readonly allowedHosts: readonly string[];
    readonly status: number;
    readonly headers: readonly (readonly [string, string])[];
    readonly body: string;
  };
}
const golden = (JSON.parse(readFileSync(new URL("./golden/drf-answers.json", import.meta.url), "utf8")) as Golden).disallowedHost;

describe("isHostAllowed, Django's validate_host", () => {
  it.each([
    ["registry.example.hr", ["registry.example.hr"], true],
    ["Registry.Example.HR:8443", ["registry.example.hr"], true],
    ["registry.example.hr.", ["registry.example.hr"], true],
    ["evil.example", ["registry.example.hr"], false],
    ["api.registry.example.hr", [".registry.example.hr"], true],
    ["registry.example.hr", [".registry.example.hr"], true],
    ["xregistry.example.hr", [".registry.example.hr"], false],
    ["anything.org:1", ["*"], true],
    ["a_b", ["*"], false],
    ["evil.org/x", ["*"], false],
    ["[::1]:8081", ["[::1]"], true],
    ["localhost", [""], false],
  ] as const)("Host %s with ALLOWED_HOSTS %j -> %s", (host, patterns, allowed) => {
    expect(isHostAllowed(host, patterns)).toBe(allowed);
  });

  it.each([
    ["LocalHost:8080", "localhost"],
    ["[::1]", "[::1]"],
    [".", ""],
    ["a b", ""],
  ])("hostDomain(%j) -> %j", (host, domain) => {
    expect(hostDomain(host)).toBe(domain);
  });
});

describe("the answer to a disallowed Host", () => {
  const site: SiteHost = {
    manifest: () => Promise.reject(new Error("a refused host reads no manifest")),
    refresh: () => Promise.resolve(),
    readPage: () => Promise.resolve(null),
    readChunk: () => Promise.resolve(null),
    fix: "",
    allowedHosts: golden.allowedHosts,
  };
  const headers = { get: () => null };

  it(`is Django's: ${golden.status}, ${golden.headers.map(([name]) => name).join(", ")}, the same bytes`, async () => {
    const answer = await answerRequest({ method: "GET", target: "/api/subjekti/", scheme: "http", host: golden.host, headers }, site);
    expect(answer.kind).toBe("send");
    if (answer.kind !== "send") return;
    expect(answer.status).toBe(golden.status);
    expect(new TextDecoder().decode(answer.body as Uint8Array)).toBe(golden.body);
    const names = new Map(answer.headers.map(([name, value]) => [name.toLowerCase(), value]));
    for (const [name, value] of golden.headers) expect(names.get(name.toLowerCase()), name).toBe(value);
    expect(names.get("cache-control")).toBe("no-store");
    expect(names.get("content-length")).toBe(String(Buffer.byteLength(golden.body)));
    expect(disallowedHost().body).toBe(golden.body);
  });

  it("HEAD: no body, the length of the GET's", async () => {
    const answer = await answerRequest({ method: "HEAD", target: "/", scheme: "http", host: "evil.example", headers }, site);
    expect(answer.kind === "send" && answer.body).toBe(null);
    expect(answer.kind === "send" && answer.headers.find(([name]) => name === "Content-Length")?.[1]).toBe(String(golden.body.length));
  });
});
