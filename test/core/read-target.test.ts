import { describe, expect, it } from "vitest";
import {
  decodeQueryBytes,
  linkOrigin,
  percentDecodeBytes,
  readUrlTarget,
  splitTarget,
  utf8Bytes,
} from "../../src/core/request/read-target.ts";

describe("splitTarget: the target as a WSGI server splits it, nothing resolved", () => {
  it.each([
    ["/api/subjekti/?limit=5", "/api/subjekti/", "limit=5"],
    ["/api/subjekti/./", "/api/subjekti/./", ""],
    ["/api/x/../subjekti?a=1?b", "/api/x/../subjekti", "a=1?b"],
    ["/api\\subjekti/", "/api\\subjekti/", ""],
    ["/api/subjekti/?x=1#frag", "/api/subjekti/", "x=1"],
    ["//api/subjekti/", "//api/subjekti/", ""],
    ["http://Other:81/api/subjekti/?a=1", "/api/subjekti/", "a=1"],
    ["http://other?a=1", "/", "a=1"],
    ["/api/subjekti/?x=\xe9", "/api/subjekti/", "x=\xe9"],
  ])("%j -> path %j, query %j", (target, path, query) => {
    expect(splitTarget(target)).toEqual({ path, query });
  });
});

describe("Request.url as Deno writes it: its UTF-8 bytes, split as sent", () => {
  it("keeps dot segments and backslashes; text goes back to its UTF-8 bytes", () => {
    expect(splitTarget(utf8Bytes("http://LocalHost:8080/api/x/../subjekti/?ime=čć"))).toEqual({
      path: "/api/x/../subjekti/",
      query: "ime=\xc4\x8d\xc4\x87",
    });
    expect(splitTarget(utf8Bytes("http://LocalHost:8080/api\\subjekti/%2e?x=1#f"))).toEqual({ path: "/api\\subjekti/%2e", query: "x=1" });
  });
});

describe("readUrlTarget: the target as a WHATWG URL reads it (what a static file is asked for)", () => {
  it.each([
    ["/index.html?x=1", { path: "/index.html", query: "x=1" }],
    ["/a/../b/./c", { path: "/b/c", query: "" }],
    ["/\xc4\x8d.txt", { path: "/%C4%8D.txt", query: "" }],
    ["//evil/x", { path: "//evil/x", query: "" }],
    ["http://other/x?y", { path: "/x", query: "y" }],
    ["*", null],
    ["ftp://other/x", null],
  ])("%j -> %j", (target, expected) => {
    expect(readUrlTarget(target)).toEqual(expected);
  });
});

describe("percentDecodeBytes: Python's unquote_to_bytes", () => {
  it.each([
    ["/api/%73ubjekti/", "/api/subjekti/"],
    ["/api/subjekti/%2e", "/api/subjekti/."],
    ["/api/subjekti%2F", "/api/subjekti/"],
    ["/api/%ZZ%4", "/api/%ZZ%4"],
    ["/api/%C4%8D", "/api/\xc4\x8d"],
  ])("%j -> %j", (path, decoded) => {
    expect(percentDecodeBytes(path)).toBe(decoded);
  });
});

describe("decodeQueryBytes: QueryDict's UTF-8, else Latin-1 for the whole query", () => {
  it.each([
    ["ASCII stays", "limit=5", "limit=5"],
    ["valid UTF-8 is decoded", "ime=\xc4\x8d", "ime=č"],
    ["one invalid byte makes all of it Latin-1", "ime=\xc4\x8d&x=\xff", "ime=\xc4\x8d&x=\xff"],
    ["no U+FFFD for a lone byte", "x=\x80", "x=\x80"],
  ])("%s", (_name, query, decoded) => {
    expect(decodeQueryBytes(query)).toBe(decoded);
  });
});

describe("linkOrigin: the Host as sent when Django's get_host() accepts it", () => {
  it.each([
    ["LocalHost:8080", "http://LocalHost:8080"],
    ["TestServer", "http://TestServer"],
    ["[::1]:8080", "http://[::1]:8080"],
    ["example.org.", "http://example.org."],
    ["a_b", "http://fallback"],
    [":80", "http://fallback"],
    ["evil/x", "http://fallback"],
    [undefined, "http://fallback"],
  ])("Host %j -> %s", (host, origin) => {
    expect(linkOrigin("http", host, "http://fallback")).toBe(origin);
  });
});
