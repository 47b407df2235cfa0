/**
 * A zip archive's entries by name, each readable as a stream in any order (yauzl reads the central
 * directory, then seeks): a workbook's parts are read in the order they are needed, whatever order
 * the writer stored them in.
 */
import type { Readable } from "node:stream";
import yauzl from "yauzl";

export interface ZipEntries {
  /** The entry names, as stored. */
  readonly names: readonly string[];
  /** The entry's bytes as a stream, or null when there is no such entry. */
  open(name: string): Promise<Readable | null>;
  close(): void;
}

export function openZip(path: string): Promise<ZipEntries> {
  return new Promise((resolve, reject) => {
    yauzl.open(path, { lazyEntries: true, autoClose: false, decodeStrings: true }, (error, zip) => {
      if (error !== null) return reject(error);
      const entries = new Map<string, yauzl.Entry>();
      zip.on("error", reject);
      zip.on("entry", (entry: yauzl.Entry) => {
        entries.set(entry.fileName, entry);
        zip.readEntry();
      });
      zip.on("end", () =>
        resolve({
          names: [...entries.keys()],
          open: (name) => {
            const entry = entries.get(name);
            if (entry === undefined) return Promise.resolve(null);
            return new Promise((done, fail) =>
              zip.openReadStream(entry, (failed, stream) => (failed === null ? done(stream) : fail(failed))),
            );
          },
          close: () => zip.close(),
        }),
      );
      zip.readEntry();
    });
  });
}

/** The whole text of an entry (small parts: the workbook, its relationships, the styles), or null. */
export async function readEntryText(zip: ZipEntries, name: string): Promise<string | null> {
  const stream = await zip.open(name);
  if (stream === null) return null;
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
}
