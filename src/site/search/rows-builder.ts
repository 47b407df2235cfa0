/** The sets of places the search stage gathers (core/search/row-sets.ts has their stored form). */

const EMPTY = new Uint8Array(0);

/**
 * A set of places growing in order, of a list of `count`: its size, its last place and its gaps as
 * varints, or its bitmap once it has more members than the bitmap has bytes (the stored form is
 * then the bitmap: row-sets.ts). A common piece's set holds count / 8 bytes at most, not a byte a
 * member and as much again of room to grow.
 */
export class RowsBuilder {
  size = 0;
  last = -1;
  bytes = new Uint8Array(8);
  length = 0;
  bits: Uint8Array | null = null;

  readonly count: number;

  constructor(count: number) {
    this.count = count;
  }

  add(place: number): void {
    if (place === this.last) return;
    let gap = place - (this.last < 0 ? 0 : this.last);
    this.last = place;
    this.size++;
    if (this.bits !== null) {
      this.bits[place >>> 3] = (this.bits[place >>> 3] as number) | (1 << (place & 7));
      return;
    }
    if (this.length + 5 > this.bytes.length) {
      const grown = new Uint8Array(this.bytes.length * 2);
      grown.set(this.bytes);
      this.bytes = grown;
    }
    while (gap >= 0x80) {
      this.bytes[this.length++] = (gap & 0x7f) | 0x80;
      gap >>>= 7;
    }
    this.bytes[this.length++] = gap;
    if (this.size > Math.ceil(this.count / 8)) {
      const bits = new Uint8Array(Math.ceil(this.count / 8));
      for (const p of this.places()) bits[p >>> 3] = (bits[p >>> 3] as number) | (1 << (p & 7));
      this.bits = bits;
      this.bytes = EMPTY;
      this.length = 0;
    }
  }

  /** Lets its bytes go once it is encoded (it is then empty). */
  release(): void {
    this.bytes = EMPTY;
    this.bits = null;
    this.length = 0;
    this.size = 0;
  }

  /** Its places. */
  places(): number[] {
    const places: number[] = [];
    if (this.bits !== null) {
      for (let byte = 0; byte < this.bits.length; byte++) {
        const b = this.bits[byte] as number;
        if (b !== 0) for (let bit = 0; bit < 8; bit++) if ((b >> bit) & 1) places.push(byte * 8 + bit);
      }
      return places;
    }
    let place = 0;
    for (let at = 0; at < this.length; ) {
      let gap = 0;
      for (let shift = 1; ; shift *= 128) {
        const b = this.bytes[at++] as number;
        gap += (b & 0x7f) * shift;
        if (b < 0x80) break;
      }
      places.push((place += gap));
    }
    return places;
  }

  /** The stored set (core/search/row-sets.ts): the gaps, or a bitmap when that is smaller. */
  encode(): Uint8Array {
    const header = (kind: number): number[] => {
      const out = [kind];
      for (let v = this.size; ; v >>>= 7) {
        if (v < 0x80) {
          out.push(v);
          break;
        }
        out.push((v & 0x7f) | 0x80);
      }
      return out;
    };
    if (this.bits !== null) return Buffer.concat([Uint8Array.from(header(1)), this.bits]);
    return Buffer.concat([Uint8Array.from(header(0)), this.bytes.subarray(0, this.length)]);
  }
}
