/**
 * exceljs, loaded with its XML stream decoding made correct. exceljs 4.4.0 decodes each inflated
 * chunk of a workbook's XML on its own (`lib/utils/parse-sax.js`), so a character whose bytes
 * straddle two chunks becomes two U+FFFD: about one row in a few thousand of Croatian text
 * (a known, still open exceljs bug). Before exceljs is first required, its `parse-sax` module is
 * put in the module cache as the same SAX loop with one streaming, fatal UTF-8 decoder per XML
 * part: characters are joined across chunks, and bytes that are not UTF-8 fail the read (an
 * error located on the file) instead of becoming U+FFFD. exceljs is pinned to the exact version
 * this replaces; a test reads a workbook whose characters are certain to straddle chunks.
 */
import { createRequire, Module } from "node:module";
import { dirname, join } from "node:path";

type ExcelJs = typeof import("exceljs");

const require = createRequire(import.meta.url);

interface SaxEvent {
  readonly eventType: "opentag" | "text" | "closetag";
  readonly value: unknown;
}

interface SaxesParserLike {
  on(event: "error", listener: (error: Error) => void): void;
  on(event: "opentag" | "text" | "closetag", listener: (value: unknown) => void): void;
  write(text: string): void;
}

/** exceljs's parse-sax, with the chunks decoded as one stream. */
function makeParseSax(SaxesParser: new () => SaxesParserLike) {
  return async function* parseSax(iterable: AsyncIterable<Buffer | string>): AsyncGenerator<SaxEvent[]> {
    const parser = new SaxesParser();
    const decoder = new TextDecoder("utf-8", { fatal: true });
    let error: Error | undefined;
    parser.on("error", (e) => {
      error = e;
    });
    let events: SaxEvent[] = [];
    parser.on("opentag", (value) => events.push({ eventType: "opentag", value }));
    parser.on("text", (value) => events.push({ eventType: "text", value }));
    parser.on("closetag", (value) => events.push({ eventType: "closetag", value }));
    for await (const chunk of iterable) {
      parser.write(typeof chunk === "string" ? chunk : decoder.decode(chunk, { stream: true }));
      if (error !== undefined) throw error;
      yield events;
      events = [];
    }
    // Bytes of a character left at the end: the part is cut short or not UTF-8 (fatal: it throws).
    parser.write(decoder.decode());
    if (error !== undefined) throw error;
    if (events.length > 0) yield events;
  };
}

let loaded: ExcelJs | undefined;
const FIXED = Symbol.for("subjekti.parse-sax-streaming");

/** exceljs with the stream decoding fixed (see above); loaded on first use, it is large. */
export function loadExcelJs(): ExcelJs {
  if (loaded !== undefined) return loaded;
  const main = require.resolve("exceljs");
  const path = join(dirname(main), "lib", "utils", "parse-sax.js");
  const fromExcelJs = createRequire(main);
  const cached = require.cache[path];
  if (cached === undefined) {
    const { SaxesParser } = fromExcelJs("saxes") as { SaxesParser: new () => SaxesParserLike };
    const module = new Module(path);
    module.filename = path;
    module.loaded = true;
    module.exports = Object.assign(makeParseSax(SaxesParser), { [FIXED]: true });
    require.cache[path] = module;
  } else if ((cached.exports as Record<symbol, unknown>)[FIXED] !== true) {
    // Its modules hold the original by now: every exceljs import must go through this function.
    throw new Error("exceljs was loaded before loadExcelJs(): load it only through src/data/sources/load-exceljs.ts");
  }
  loaded = fromExcelJs("exceljs") as ExcelJs;
  return loaded;
}
