import { describe, expect, it } from "vitest";
import { MAX_HEADER_BYTES, MAX_TARGET_BYTES, oversizeRefusal } from "../../src/core/request/request-bounds.ts";

const headers = (values: Record<string, string> = {}) => new Headers(values);
const path = (bytes: number): string => `/api/subjekti/?x=${"a".repeat(bytes - "/api/subjekti/?x=".length)}`;

describe("oversizeRefusal: the sizes refused before any work", () => {
  it.each([
    ["an origin-form target of exactly 4 KB -> answered", path(MAX_TARGET_BYTES), null],
    ["an origin-form target of 4 KB + 1 -> 414", path(MAX_TARGET_BYTES + 1), 414],
    [
      "an absolute-form target whose path and query are 4 KB -> answered (the origin is not counted)",
      `https://registry.example.hr${path(MAX_TARGET_BYTES)}`,
      null,
    ],
    ["an absolute-form target whose path and query are 4 KB + 1 -> 414", `https://registry.example.hr${path(MAX_TARGET_BYTES + 1)}`, 414],
  ])("%s", (_name, target, status) => {
    expect(oversizeRefusal(target, headers())?.status ?? null).toBe(status);
  });

  it.each(["accept", "if-none-match", "origin", "access-control-request-method", "access-control-request-headers", "host"])(
    "a %s of 8 KB -> answered, 8 KB + 1 -> 431 naming it",
    (name) => {
      expect(oversizeRefusal("/api/subjekti/", headers({ [name]: "a".repeat(MAX_HEADER_BYTES) }))).toBeNull();
      const refused = oversizeRefusal("/api/subjekti/", headers({ [name]: "a".repeat(MAX_HEADER_BYTES + 1) }));
      expect(refused?.status).toBe(431);
      expect(refused?.body).toContain(`the ${name} header is over`);
    },
  );

  it("a header the router never reads may be longer (the host's own head limit bounds it)", () => {
    expect(oversizeRefusal("/api/subjekti/", headers({ cookie: "a".repeat(64 * 1024) }))).toBeNull();
  });
});
