/**
 * The lines of an NDJSON byte stream, split on `\n` alone (NDJSON's delimiter; `node:readline` also
 * breaks at U+2028 on newer Node versions), each without its newline and never decoded: the feed
 * compares and copies records as the bytes the build rendered. A cursor, not an async generator:
 * a step to the next line is synchronous while the buffer holds it (a million lines would
 * otherwise pay a million promise round trips), and awaits only to read more.
 *
 *   const lines = await LineCursor.open(stream);
 *   while (lines.line !== undefined) { use(lines.line); if (!lines.step()) await lines.more(); }
 */
const NEWLINE = 0x0a;
const EMPTY = new Uint8Array(0);

export class LineCursor {
  /** The current line, or undefined past the last. */
  line: Uint8Array | undefined;
  #chunks: AsyncIterator<Uint8Array>;
  #buffer: Uint8Array = EMPTY;
  #at = 0;
  #ended = false;
  /**
   * The start of an unfinished line, as the chunks it came in: joined once, when its newline comes.
   * Joining it to every chunk read instead costs the square of the line's length (a 64 MiB line
   * read in 64 KiB chunks copied 32 GiB, four minutes).
   */
  #parts: Uint8Array[] = [];
  #partsLength = 0;

  private constructor(chunks: AsyncIterable<Uint8Array>) {
    this.#chunks = chunks[Symbol.asyncIterator]();
  }

  /** A cursor on the first line of `chunks`. */
  static async open(chunks: AsyncIterable<Uint8Array>): Promise<LineCursor> {
    const cursor = new LineCursor(chunks);
    await cursor.next();
    return cursor;
  }

  /** Moves to the next line when the buffer holds it (true); false when more must be read first (`more`). */
  step(): boolean {
    const end = this.#buffer.indexOf(NEWLINE, this.#at);
    if (end >= 0) {
      this.line = this.#joined(this.#buffer.subarray(this.#at, end));
      this.#at = end + 1;
      return true;
    }
    if (!this.#ended) return false;
    // The last line may lack its newline.
    const rest = this.#buffer.subarray(this.#at);
    this.line = rest.length > 0 || this.#partsLength > 0 ? this.#joined(rest) : undefined;
    this.#at = this.#buffer.length;
    return true;
  }

  /** Reads more of the stream, then moves to the next line. */
  async more(): Promise<void> {
    for (;;) {
      const read = await this.#chunks.next();
      const rest = this.#buffer.subarray(this.#at);
      if (rest.length > 0) {
        this.#parts.push(rest);
        this.#partsLength += rest.length;
      }
      this.#buffer = read.done ? EMPTY : read.value;
      this.#at = 0;
      if (read.done) this.#ended = true;
      if (this.step()) return;
    }
  }

  /** Moves to the next line, reading more when needed. */
  async next(): Promise<void> {
    if (!this.step()) await this.more();
  }

  /** Lets go of the stream before its end (a reader that stops at a closing line): its generator's cleanup runs now. */
  async close(): Promise<void> {
    this.line = undefined;
    this.#ended = true;
    this.#buffer = EMPTY;
    this.#at = 0;
    await this.#chunks.return?.();
  }

  /** The unfinished line's parts and `tail` as one line (`tail` itself when there are none). */
  #joined(tail: Uint8Array): Uint8Array {
    if (this.#partsLength === 0) return tail;
    const line = new Uint8Array(this.#partsLength + tail.length);
    let at = 0;
    for (const part of this.#parts) {
      line.set(part, at);
      at += part.length;
    }
    line.set(tail, at);
    this.#parts = [];
    this.#partsLength = 0;
    return line;
  }
}
