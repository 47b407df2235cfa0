/** Reading a file's bytes at a position until all have come (a read may return fewer than asked). */
import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { type FileHandle, open } from "node:fs/promises";

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

/** `readInto` of an open FileHandle, without blocking the thread: reads `length` bytes at `position` into `into[offset, ...)`; how many came. */
export async function readIntoAsync(file: FileHandle, into: Uint8Array, offset: number, length: number, position: number): Promise<number> {
  let done = 0;
  while (done < length) {
    const { bytesRead } = await file.read(into, offset + done, length - done, position + done);
    if (bytesRead === 0) break;
    done += bytesRead;
  }
  return done;
}

/**
 * Whole files read one after another into one buffer, grown for a larger file: a file's bytes
 * last until the next is read. A fresh buffer a file (readFileSync) is fresh memory for the kernel
 * to hand out, a file's worth each time: some 1.4 GB a pass over the chunk files at five million
 * subjects.
 */
export class WholeFiles {
  #buffer: Buffer = Buffer.allocUnsafeSlow(0);

  /** The bytes of the file at `path` (its size when opened), in the buffer. */
  read(path: string): Buffer {
    const fd = openSync(path, "r");
    try {
      const into = this.#room(fstatSync(fd).size);
      return into.subarray(0, readInto(fd, into, 0, into.length, 0));
    } finally {
      closeSync(fd);
    }
  }

  /** `read` without blocking the thread (a pass beside other work on the main thread). */
  async readAsync(path: string): Promise<Buffer> {
    const file = await open(path, "r");
    try {
      const into = this.#room((await file.stat()).size);
      return into.subarray(0, await readIntoAsync(file, into, 0, into.length, 0));
    } finally {
      await file.close();
    }
  }

  /** The buffer, grown for a file of `size` bytes (at least doubled: few growths), as `size` bytes. */
  #room(size: number): Buffer {
    if (size > this.#buffer.length) this.#buffer = Buffer.allocUnsafeSlow(Math.max(size, 2 * this.#buffer.length));
    return this.#buffer.subarray(0, size);
  }
}

/**
 * The bytes of `count` files in order (file `i` at `pathOf(i)`), each whole, `ahead` read at once.
 * The kernel reads ahead within a file, never into the next: read one at a time, a thousand chunk
 * files of a cold cache at a million subjects each waited on the disk in turn (most of an edit's
 * downloads stage, its thread idle). A file's bytes last until the next is asked for, when their
 * buffer starts on a later file: `ahead` buffers, each grown as WholeFiles's one.
 */
export async function* filesAhead(count: number, pathOf: (i: number) => string, ahead = 4): AsyncGenerator<Buffer> {
  const slots = Array.from({ length: Math.max(1, Math.min(ahead, count)) }, () => new WholeFiles());
  const reads: Promise<Buffer>[] = [];
  const start = (i: number): void => {
    const read = (slots[i % slots.length] as WholeFiles).readAsync(pathOf(i));
    // Awaited in turn below; one failing while an earlier is awaited must not be unhandled meanwhile.
    read.catch(() => undefined);
    reads[i % slots.length] = read;
  };
  for (let i = 0; i < Math.min(slots.length, count); i++) start(i);
  for (let i = 0; i < count; i++) {
    yield await (reads[i % slots.length] as Promise<Buffer>);
    if (i + slots.length < count) start(i + slots.length);
  }
}

/** Bytes read at a time by filePieces. */
const PIECE_BYTES = 1 << 20;

/**
 * An open file's bytes from where it stands, a megabyte at a time into one buffer: each piece
 * lasts until the next is asked for (a hash's update, a bound's count). A stream's 64 KB reads into
 * fresh buffers woke the thread pool some 4,400 times for a 286 MB file, each into memory new to
 * the kernel. The caller opens and closes the file.
 */
export async function* filePieces(file: FileHandle): AsyncGenerator<Buffer> {
  const buffer = Buffer.allocUnsafeSlow(PIECE_BYTES);
  for (;;) {
    const { bytesRead } = await file.read(buffer, 0, PIECE_BYTES, null);
    if (bytesRead === 0) return;
    yield buffer.subarray(0, bytesRead);
  }
}
