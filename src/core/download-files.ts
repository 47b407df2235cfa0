/**
 * The downloads of the whole list: plain static files the build writes under `/downloads/`, each
 * at a stable URL (`/downloads/subjekti.csv`, replaced when the data changes) and at an immutable
 * content-named one (`/downloads/subjekti-<sha256>.csv`, never). Their headers come from one table
 * (as the change feed's do, published-files.ts) for the preview, `subjekti serve`, netlify.toml, the
 * Worker and the nginx configuration, whose tests hold them to it: readable from any origin, the
 * stable files cached briefly and revalidated by their strong `ETag` (the file's SHA-256, which the
 * manifest names), the content-named ones cached forever.
 */
import { feedFileRule } from "./published-files.ts";

export type DownloadFormat = "ndjson" | "csv" | "xlsx";

/** Every format, in the order the description lists them. */
export const DOWNLOAD_FORMATS: readonly DownloadFormat[] = ["ndjson", "csv", "xlsx"];

/**
 * What the build writes when not told otherwise: all three. The workbook is what a spreadsheet opens
 * with the OIBs and codes whole (a CSV's OIB becomes a number there, its leading zero lost), and
 * its writer streams (src/export/xlsx-writer.ts), so it costs a build no more memory than the rest.
 */
export const DEFAULT_DOWNLOADS: readonly DownloadFormat[] = ["ndjson", "csv", "xlsx"];

/** The directory of the downloads, under the site's root. */
export const DOWNLOADS_DIR = "downloads";

/** The base of every download's name. */
const BASE_NAME = "subjekti";

export interface DownloadKind {
  readonly extension: string;
  /** The media type (the `Content-Type` every host sends). */
  readonly mediaType: string;
  /**
   * The media type IANA registers for the format, which the DCAT catalogue names (data.europa.eu
   * checks `dcat:mediaType` against IANA's register); null when none is registered.
   */
  readonly registeredMediaType: string | null;
  /** The file type's code in the EU's file-type vocabulary (publications.europa.eu/resource/authority/file-type). */
  readonly euFileType: string;
  /** A few words on what the file is, in Croatian and in English. */
  readonly title: { readonly hr: string; readonly en: string };
}

export const DOWNLOAD_KINDS: Readonly<Record<DownloadFormat, DownloadKind>> = {
  ndjson: {
    extension: "ndjson",
    mediaType: "application/x-ndjson",
    // NDJSON has no registered type (x-ndjson is the spec's own name, never registered): the catalogue
    // names the file type (the EU's JSON) and no media type rather than one IANA does not know.
    registeredMediaType: null,
    euFileType: "JSON",
    title: {
      hr: "NDJSON: jedan subjekt (JSON objekt) po retku, kao u API-ju",
      en: "NDJSON: one subject (a JSON object) a line, as in the API",
    },
  },
  csv: {
    extension: "csv",
    mediaType: "text/csv; charset=utf-8",
    registeredMediaType: "text/csv",
    euFileType: "CSV",
    // For programs, and the form the build reads back: a spreadsheet that opens it types the OIB and
    // the code as numbers (LibreOffice and Excel alike), so the title sends people to the workbook.
    title: {
      hr: "CSV za programe: UTF-8 s BOM-om, ćelije odvojene s ; (OIB i oznaku čitajte kao tekst); za tablični kalkulator uzmite .xlsx",
      en: "CSV for programs: UTF-8 with a BOM, cells separated by ; (read OIB and code as text); for a spreadsheet take the .xlsx",
    },
  },
  xlsx: {
    extension: "xlsx",
    mediaType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    registeredMediaType: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
    euFileType: "XLSX",
    title: {
      hr: "Radna knjiga (.xlsx) za Excel, LibreOffice i pandas: OIB i oznaka kao tekst, filtar u zaglavlju",
      en: "Workbook (.xlsx) for Excel, LibreOffice and pandas: OIB and code as text, a filter on the header",
    },
  },
};

/** One download as the manifest names it. */
export interface Download {
  readonly format: DownloadFormat;
  /** The stable public path (`/downloads/subjekti.csv`). */
  readonly path: string;
  /** The immutable content-named public path. */
  readonly immutablePath: string;
  readonly bytes: number;
  /** The SHA-256 of the bytes, hex. */
  readonly sha256: string;
}

/** Is `text` a download format's name? */
export function isDownloadFormat(text: string): text is DownloadFormat {
  return (DOWNLOAD_FORMATS as readonly string[]).includes(text);
}

/** The stable public path of a format's download. */
export function downloadPath(format: DownloadFormat): string {
  return `/${DOWNLOADS_DIR}/${BASE_NAME}.${DOWNLOAD_KINDS[format].extension}`;
}

/** The immutable public path of a download whose bytes hash to `sha256`. */
export function contentNamedPath(format: DownloadFormat, sha256: string): string {
  return `/${DOWNLOADS_DIR}/${BASE_NAME}-${sha256}.${DOWNLOAD_KINDS[format].extension}`;
}

export interface DownloadFileRule {
  /** The public path: exact, or a prefix ending in `/`. */
  readonly path: string;
  readonly cacheControl: string;
}

/** The stable files move with the data: cached as briefly as the API's pages, then revalidated by ETag. */
export const STABLE_DOWNLOAD_CACHE = "public, max-age=300";

/** First match wins. */
export const DOWNLOAD_FILE_RULES: readonly DownloadFileRule[] = [
  ...DOWNLOAD_FORMATS.map((format) => ({ path: downloadPath(format), cacheControl: STABLE_DOWNLOAD_CACHE })),
  { path: `/${DOWNLOADS_DIR}/`, cacheControl: "public, max-age=31536000, immutable" },
];

/** The cache rule of a download's public path, if it is one. */
export function downloadFileRule(path: string): DownloadFileRule | undefined {
  return DOWNLOAD_FILE_RULES.find((rule) => (rule.path.endsWith("/") ? path.startsWith(rule.path) : path === rule.path));
}

/** Headers a cross-origin page may read on a static file: its ETag (for If-None-Match) and what a range request answers. */
export const STATIC_EXPOSE_HEADERS = "ETag, Content-Length, Content-Range, Accept-Ranges";

/**
 * The headers every host adds to a static file of the feed or the downloads (beside the file's own
 * Content-Type, Content-Length and ETag), or undefined for any other path.
 */
export function staticFileHeaders(path: string): [string, string][] | undefined {
  const rule = feedFileRule(path) ?? downloadFileRule(path);
  if (rule === undefined) return undefined;
  return [
    ["Access-Control-Allow-Origin", "*"],
    ["Access-Control-Expose-Headers", STATIC_EXPOSE_HEADERS],
    ["Cache-Control", rule.cacheControl],
  ];
}

/** The strong ETag of the download at `path` (stable or content-named) among `downloads`, if it is one. */
export function downloadEtag(path: string, downloads: readonly Download[]): string | undefined {
  const download = downloads.find((d) => d.path === path || d.immutablePath === path);
  return download === undefined ? undefined : `"${download.sha256}"`;
}

/** The media type of the download at `path`, if it is one of `downloads`. */
export function downloadMediaType(path: string, downloads: readonly Download[]): string | undefined {
  const download = downloads.find((d) => d.path === path || d.immutablePath === path);
  return download === undefined ? undefined : DOWNLOAD_KINDS[download.format].mediaType;
}
