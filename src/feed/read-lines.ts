/**
 * The lines of an NDJSON stream, split on `\n` alone (NDJSON's delimiter; `node:readline` also
 * breaks at U+2028 on newer Node versions), each without its newline. Bytes, never decoded: the
 * feed compares and copies records as the bytes the build rendered.
 */
export async function* readLines(chunks: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  let rest: Uint8Array = new Uint8Array(0);
  for await (const chunk of chunks) {
    let data = rest.length === 0 ? chunk : concat(rest, chunk);
    let start = 0;
    for (let end = data.indexOf(0x0a); end >= 0; end = data.indexOf(0x0a, start)) {
      yield data.subarray(start, end);
      start = end + 1;
    }
    rest = data.slice(start);
    data = rest;
  }
  if (rest.length > 0) yield rest;
}

function concat(a: Uint8Array, b: Uint8Array): Uint8Array {
  const joined = new Uint8Array(a.length + b.length);
  joined.set(a, 0);
  joined.set(b, a.length);
  return joined;
}
