/**
 * GETs from a site whose certificate a private CA signed, or that is self-signed: `--ca <file>`
 * trusts the PEM certificates in the file beside the system's roots, `--insecure` checks no
 * certificate at all. Node's fetch takes neither without undici's dispatcher, so with either given
 * the request goes through node:https (redirects followed, as fetch follows them) and comes back as
 * a web Response; without, it is fetch itself.
 */
import { readFile } from "node:fs/promises";
import { request as httpRequest, type IncomingMessage } from "node:http";
import { request as httpsRequest } from "node:https";
import { Readable } from "node:stream";
import { rootCertificates } from "node:tls";
import { msg } from "./messages/message.ts";
import { failure } from "./messages/translate.ts";
import { isErrno } from "./machine-error.ts";

/** How an https site's certificate is checked. */
export interface Trust {
  /** PEM certificates trusted beside the system's roots (`--ca`). */
  readonly ca?: string;
  /** No certificate check at all (`--insecure`). */
  readonly insecure?: boolean;
}

/** What a GET may carry: a deadline and request headers. */
export interface GetInit {
  readonly signal?: AbortSignal;
  readonly headers?: Readonly<Record<string, string>>;
}

/** A GET of `url` that follows redirects; rejects as fetch does when the site cannot be reached (the cause's `code` says why). */
export type Get = (url: URL, init?: GetInit) => Promise<Response>;

/** The certificates of the PEM file `path` (`--ca`), or one line saying why they cannot be read. */
export async function readCa(path: string): Promise<string> {
  let ca: string;
  try {
    ca = await readFile(path, "utf8");
  } catch (error) {
    throw failure("BAD_CA", msg("error.ca-unreadable", { ca: path, detail: (isErrno(error) ? error.code : undefined) ?? "error" }));
  }
  if (!ca.includes("-----BEGIN CERTIFICATE-----")) throw failure("BAD_CA", msg("error.ca-not-pem", { ca: path }));
  return ca;
}

/** Whether an error code is a certificate the client did not trust (what --ca or --insecure answers). */
export function isCertificateCode(code: string | undefined): boolean {
  return code !== undefined && /CERT|SELF_SIGNED|UNABLE_TO_(?:GET|VERIFY)/.test(code);
}

/** The code of a failed GET: fetch's cause's, or node:https's own. */
export function failureCode(error: unknown): string | undefined {
  const cause = (error as { cause?: { code?: unknown } } | null)?.cause;
  const code = typeof cause?.code === "string" ? cause.code : (error as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : undefined;
}

const MAX_REDIRECTS = 20;

/** The GET `trust` asks for: fetch when it asks nothing, node:https with its CA or without checks otherwise. */
export function trustedGet(trust: Trust = {}): Get {
  if (trust.ca === undefined && trust.insecure !== true) return (url, init = {}) => fetch(url, { redirect: "follow", ...init });
  const tls = { ...(trust.ca === undefined ? {} : { ca: [...rootCertificates, trust.ca] }), rejectUnauthorized: trust.insecure !== true };
  const once = (url: URL, { signal, headers }: GetInit): Promise<IncomingMessage> =>
    new Promise((resolve, reject) => {
      const options = { ...(signal === undefined ? {} : { signal }), ...(headers === undefined ? {} : { headers }) };
      const request = url.protocol === "https:" ? httpsRequest(url, { ...tls, ...options }) : httpRequest(url, options);
      request.once("response", resolve);
      request.once("error", reject);
      request.end();
    });
  return async (url, init = {}) => {
    let at = url;
    for (let redirects = 0; ; redirects++) {
      const answer = await once(at, init);
      const location = answer.headers.location;
      if (answer.statusCode !== undefined && answer.statusCode >= 300 && answer.statusCode < 400 && location !== undefined) {
        answer.resume();
        if (redirects === MAX_REDIRECTS) throw new Error(`more than ${MAX_REDIRECTS} redirects`);
        at = new URL(location, at);
        continue;
      }
      const headers = new Headers();
      for (const [name, value] of Object.entries(answer.headers)) {
        if (value !== undefined) headers.set(name, Array.isArray(value) ? value.join(", ") : value);
      }
      const status = answer.statusCode ?? 500;
      const body = status === 204 || status === 304 ? null : (Readable.toWeb(answer) as ReadableStream<Uint8Array>);
      return new Response(body, { status, headers });
    }
  };
}
