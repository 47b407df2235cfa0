import { describe, expect, it } from "vitest";
import { type RangeAnswer, rangeAnswer } from "../../src/serve/byte-range.ts";

const MODIFIED = new Date("2026-11-28T01:00:00.750Z");
const FILE = { size: 100, etag: '"abc"', modified: MODIFIED };
const WHOLE: RangeAnswer = { kind: "whole" };
const UNSATISFIABLE: RangeAnswer = { kind: "unsatisfiable" };
const part = (start: number, end: number): RangeAnswer => ({ kind: "part", start, end });

describe("rangeAnswer", () => {
  it.each<[string, string, string | undefined, string | undefined, RangeAnswer]>([
    ["no Range -> the whole file", "GET", undefined, undefined, WHOLE],
    ["bytes=0-9 -> bytes 0 to 9", "GET", "bytes=0-9", undefined, part(0, 9)],
    ["bytes=90- -> to the end", "GET", "bytes=90-", undefined, part(90, 99)],
    ["bytes=-10 -> the last ten", "GET", "bytes=-10", undefined, part(90, 99)],
    ["bytes=-1000 -> the whole file as a part", "GET", "bytes=-1000", undefined, part(0, 99)],
    ["bytes=50-1000 -> to the end", "GET", "bytes=50-1000", undefined, part(50, 99)],
    ["BYTES = 0-9 (unit in any case, spaces) -> a part", "GET", "BYTES = 0-9", undefined, part(0, 9)],
    ["bytes=100- (past the end) -> 416", "GET", "bytes=100-", undefined, UNSATISFIABLE],
    ["bytes=100-200 -> 416", "GET", "bytes=100-200", undefined, UNSATISFIABLE],
    ["bytes=-0 -> 416", "GET", "bytes=-0", undefined, UNSATISFIABLE],
    ["bytes=9-0 (invalid) -> ignored", "GET", "bytes=9-0", undefined, WHOLE],
    ["bytes=0-1,5-6 (two ranges) -> the whole file", "GET", "bytes=0-1,5-6", undefined, WHOLE],
    ["items=0-9 (another unit) -> ignored", "GET", "items=0-9", undefined, WHOLE],
    ["bytes=a-b -> ignored", "GET", "bytes=a-b", undefined, WHOLE],
    ["HEAD with a Range -> the whole file", "HEAD", "bytes=0-9", undefined, WHOLE],
    ["If-Range the ETag -> a part", "GET", "bytes=0-9", '"abc"', part(0, 9)],
    ["If-Range another ETag -> the whole file", "GET", "bytes=0-9", '"abd"', WHOLE],
    ["If-Range the weak ETag -> the whole file", "GET", "bytes=0-9", 'W/"abc"', WHOLE],
    ["If-Range the Last-Modified -> a part", "GET", "bytes=0-9", MODIFIED.toUTCString(), part(0, 9)],
    ["If-Range a second later -> the whole file", "GET", "bytes=0-9", new Date(MODIFIED.getTime() + 1000).toUTCString(), WHOLE],
    ["If-Range no date -> the whole file", "GET", "bytes=0-9", "yesterday", WHOLE],
  ])("%s", (_name, method, range, ifRange, expected) => {
    expect(rangeAnswer(method, range, ifRange, FILE)).toEqual(expected);
  });

  it("an empty file -> every range unsatisfiable", () => {
    expect(rangeAnswer("GET", "bytes=0-", undefined, { ...FILE, size: 0 })).toEqual(UNSATISFIABLE);
    expect(rangeAnswer("GET", "bytes=-5", undefined, { ...FILE, size: 0 })).toEqual(UNSATISFIABLE);
  });

  it("a file without an ETag -> an entity-tag If-Range never holds", () => {
    expect(rangeAnswer("GET", "bytes=0-9", '"abc"', { ...FILE, etag: undefined })).toEqual(WHOLE);
  });
});
