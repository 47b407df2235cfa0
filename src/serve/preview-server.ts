/**
 * The local preview: Node's http server, the same routing core as the edge, serve-handler for
 * the bytes. (Interface fixed; implementation in progress.)
 */
export interface PreviewOptions {
  /** The built site (default dist). */
  readonly dir: string;
  readonly port: number;
  readonly host: string;
}

export interface Preview {
  /** The collection's URL on this server, e.g. http://127.0.0.1:8080/api/subjekti/. */
  readonly url: string;
  close(): Promise<void>;
}

/** Starts the preview; throws SubjektiError when the site is missing or was built by another version. */
export async function startPreview(options: PreviewOptions): Promise<Preview> {
  throw new Error(`startPreview(${options.dir}) is not implemented yet`);
}
