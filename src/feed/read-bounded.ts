/**
 * GETs of a site's change feed with every dimension bounded: each body read as a stream and
 * refused once it passes its bound (never read whole first), an overall deadline on the whole
 * reading, and a floor on each body's rate once it has had time to start. The files are asked
 * for uncompressed and a compressed answer is refused: fetch inflates a gzip body by itself, with
 * no bound on what it makes (2 MB of gzip made 4.3 GB), so the bytes counted are the bytes sent.
 */
import { failureCode, type Get, trustedGet } from "../common/trusted-fetch.ts";
import type { FeedLimits } from "./feed-limits.ts";

/** Why a site's answer is not taken: where (the URL) and what, for one line. */
export class FeedRefusal extends Error {
  readonly where: string;
  readonly detail: string;
  constructor(where: string, detail: string) {
    super(`${where}: ${detail}`);
    this.where = where;
    this.detail = detail;
  }
}

/** A site that could not be reached at all (DNS, connection, TLS): the detail of the cause. */
export class FeedUnreachable extends Error {}

export class BoundedReader {
  readonly #limits: FeedLimits;
  readonly #deadline: AbortSignal;
  readonly #get: Get;

  /** `get`: how a GET is made (trustedGet: fetch, or node:https with `--ca`/`--insecure`). */
  constructor(limits: FeedLimits, get: Get = trustedGet()) {
    this.#limits = limits;
    this.#get = get;
    this.#deadline = AbortSignal.timeout(limits.deadlineMs);
  }

  #late(url: URL): FeedRefusal {
    return new FeedRefusal(url.href, `no whole answer within the deadline of ${Math.round(this.#limits.deadlineMs / 1000)} s`);
  }

  /** The answer's status and headers (the body is read with `body` or `text`); a compressed answer is refused. */
  async get(url: URL): Promise<Response> {
    if (this.#deadline.aborted) throw this.#late(url);
    let response: Response;
    try {
      response = await this.#get(url, { signal: this.#deadline, headers: { "accept-encoding": "identity" } });
    } catch (error) {
      if (this.#deadline.aborted) throw this.#late(url);
      const cause = (error as { cause?: { message?: string } }).cause;
      throw new FeedUnreachable(failureCode(error) ?? cause?.message ?? String(error));
    }
    const encoding = response.headers.get("content-encoding");
    if (encoding !== null && encoding.trim().toLowerCase() !== "identity") {
      await response.body?.cancel().catch(() => undefined);
      throw new FeedRefusal(url.href, `answered with Content-Encoding ${JSON.stringify(encoding.slice(0, 40))}, though asked for none`);
    }
    return response;
  }

  /**
   * The body in chunks, refused past `max` bytes (and, with `exact`, short of it too): checked
   * against Content-Length before a byte is read, and counted while streaming.
   */
  async *body(response: Response, url: URL, max: number, exact = false): AsyncGenerator<Uint8Array> {
    const stated = response.headers.get("content-length");
    const bound = `the ${exact ? "size its state gives" : "bound"} of ${max} bytes`;
    if (stated !== null && Number(stated) > max) {
      await response.body?.cancel().catch(() => undefined);
      throw new FeedRefusal(url.href, `its Content-Length ${Number(stated)} is over ${bound}`);
    }
    if (response.body === null) {
      if (exact && max > 0) throw new FeedRefusal(url.href, `answered no body`);
      return;
    }
    const reader = response.body.getReader();
    const started = performance.now();
    const { minRate, graceMs } = this.#limits;
    let seen = 0;
    let slow: FeedRefusal | undefined;
    // A body that stops altogether sends no chunk to check: a timer checks its rate too.
    const check = setInterval(
      () => {
        const elapsed = performance.now() - started;
        if (elapsed > graceMs && seen < (minRate * elapsed) / 1000) {
          slow = new FeedRefusal(url.href, `${seen} bytes in ${Math.round(elapsed / 1000)} s, slower than ${minRate} bytes a second`);
          void reader.cancel(slow).catch(() => undefined);
        }
      },
      Math.max(50, Math.min(1000, graceMs / 4)),
    );
    // Never what keeps the process alive: a reader that stops early ends the body with return().
    check.unref();
    try {
      for (;;) {
        let read: ReadableStreamReadResult<Uint8Array>;
        try {
          read = await reader.read();
        } catch (error) {
          if (this.#deadline.aborted) throw this.#late(url);
          throw new FeedRefusal(url.href, `the answer broke off (${(error as Error).message})`);
        }
        if (slow !== undefined) throw slow;
        if (read.done) break;
        seen += read.value.length;
        if (seen > max) throw new FeedRefusal(url.href, `the answer passes ${bound}`);
        yield read.value;
      }
      if (exact && seen !== max) throw new FeedRefusal(url.href, `${seen} bytes, not the ${max} its state gives`);
    } finally {
      clearInterval(check);
      await reader.cancel().catch(() => undefined);
    }
  }

  /** The body as text, within `max` bytes. */
  async text(response: Response, url: URL, max: number): Promise<string> {
    const parts: Uint8Array[] = [];
    for await (const chunk of this.body(response, url, max)) parts.push(chunk);
    return Buffer.concat(parts).toString("utf8");
  }
}
