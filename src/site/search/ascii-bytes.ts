/**
 * ASCII text made as bytes in one buffer, used again from one text to the next: a token's payload
 * and its suffix entries (key-shards.ts) are written here digit by digit, where template strings
 * made four strings a token (its places', its positions', the payload's, the entry's), a million
 * and a half at a million subjects, each decoded again to bytes.
 */
export class AsciiBytes {
  /** The bytes so far: `bytes[0, length)` (good until the next write). */
  bytes = Buffer.allocUnsafe(256);
  length = 0;

  /** Empties it for the next text. */
  reset(): void {
    this.length = 0;
  }

  /** Appends one byte (an ASCII code). */
  byte(code: number): void {
    if (this.length === this.bytes.length) this.#grow(1);
    this.bytes[this.length++] = code;
  }

  /** Appends a text of ASCII code units, one byte each. */
  ascii(text: string): void {
    if (this.length + text.length > this.bytes.length) this.#grow(text.length);
    const bytes = this.bytes;
    let at = this.length;
    for (let i = 0; i < text.length; i++) bytes[at++] = text.charCodeAt(i);
    this.length = at;
  }

  /** Appends a whole number of 0 or more (below 2^53) in decimal, as `${value}` writes it. */
  uint(value: number): void {
    if (this.length + 16 > this.bytes.length) this.#grow(16);
    const bytes = this.bytes;
    let digits = 1;
    for (let v = value; v >= 10; v = Math.floor(v / 10)) digits++;
    let at = this.length + digits;
    this.length = at;
    let v = value;
    do {
      bytes[--at] = 0x30 + (v % 10);
      v = Math.floor(v / 10);
    } while (v > 0);
  }

  /** The bytes so far as a string. */
  text(): string {
    return this.bytes.toString("latin1", 0, this.length);
  }

  #grow(more: number): void {
    const grown = Buffer.allocUnsafe(2 * (this.length + more));
    this.bytes.copy(grown, 0, 0, this.length);
    this.bytes = grown;
  }
}
