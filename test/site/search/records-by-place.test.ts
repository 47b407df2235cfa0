/**
 * Records read by place (src/site/search/records-by-place.ts), a chunk at a time into one kept
 * buffer: each record the line the whole file split gives (lines), whatever order the places
 * are asked in, across chunks of other sizes, a chunk ended by a newline or not; and no record
 * past a chunk's last.
 */
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { mulberry32 } from "../../../src/common/seeded-random.ts";
import { lines, RecordsByPlace } from "../../../src/site/search/records-by-place.ts";

const dir = mkdtempSync(join(tmpdir(), "records-by-place-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

it("reads each record as the whole chunk's lines give it, in any order", () => {
  const random = mulberry32(5);
  const size = 7;
  // Chunks of growing lengths (the buffer grows), the last one short and without its final newline.
  const chunks = Array.from({ length: 5 }, (_, chunk) =>
    Array.from({ length: chunk === 4 ? 3 : size }, (_, i) =>
      JSON.stringify({ place: chunk * size + i, name: "x".repeat(Math.floor(random() * 40 * (chunk + 1))) }),
    ),
  );
  const files = chunks.map((records, chunk) => {
    const path = join(dir, `${chunk}.ndjson`);
    writeFileSync(path, records.join("\n") + (chunk === 4 ? "" : "\n"));
    return path;
  });
  const records = new RecordsByPlace(size, (chunk) => ({ path: files[chunk] as string }));
  const count = 4 * size + 3;
  const order = Array.from({ length: 3 * count }, () => Math.floor(random() * count));
  // As the whole chunk split in lines gives each record.
  const whole = chunks.flatMap((_, chunk) => lines(Buffer.from(chunks[chunk]?.join("\n") ?? "")).map((line) => line.toString()));
  expect(whole).toHaveLength(count);
  for (const place of [...order, count - 1, 0, size - 1, size]) expect(records.line(place).toString()).toBe(whole[place]);
  expect(() => records.line(count)).toThrow(/no record/);
});
