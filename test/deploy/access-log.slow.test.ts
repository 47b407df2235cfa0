/** The access log's two formats: the common log format as nginx writes it, and one JSON object a line. */
import { describe, expect, it } from "vitest";
import { logLine } from "../../src/serve/access-log.ts";

const entry = {
  remote: "127.0.0.1",
  time: new Date(Date.UTC(2026, 10, 24, 9, 5, 7)),
  method: "GET",
  target: '/api/subjekti/?q="a"\n',
  version: "1.1",
  status: 200,
  bytes: 5313,
  host: "registry.example.hr",
  milliseconds: 1.234,
};

describe("logLine", () => {
  it('common: %h %l %u %t "%r" %>s %b, quotes and control characters escaped', () => {
    expect(logLine("common", entry)).toBe(
      '127.0.0.1 - - [24/Nov/2026:09:05:07 +0000] "GET /api/subjekti/?q=\\x22a\\x22\\x0a HTTP/1.1" 200 5313',
    );
    expect(logLine("common", { ...entry, target: "/", bytes: null })).toMatch(/" 200 -$/);
  });

  it("json: one object, the target as sent", () => {
    expect(JSON.parse(logLine("json", entry))).toEqual({
      time: "2026-11-24T09:05:07.000Z",
      remote: "127.0.0.1",
      method: "GET",
      target: entry.target,
      version: "1.1",
      status: 200,
      bytes: 5313,
      host: "registry.example.hr",
      ms: 1.2,
    });
    expect(logLine("json", entry)).not.toContain("\n");
  });
});
