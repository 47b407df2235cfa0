/** Reading a file's bytes at a position until all have come (a read may return fewer than asked). */
import { readSync } from "node:fs";

/** Reads `fd` from `position` into `into[offset, offset + length)` until all have come or the file ends; answers how many came. */
export function readInto(fd: number, into: Uint8Array, offset: number, length: number, position: number): number {
  let done = 0;
  while (done < length) {
    const read = readSync(fd, into, offset + done, length - done, position + done);
    if (read === 0) break;
    done += read;
  }
  return done;
}
