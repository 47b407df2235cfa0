/**
 * The filters and the order applied to records themselves: the detail route's one subject (DRF's
 * `get_object` filters the queryset first) and the few subjects an OIB or a code names.
 */
import type { Subject } from "../render-page.ts";
import type { Filters, OrderField } from "./read-filters.ts";
import { digitsOnly } from "./digits-only.ts";
import { searchForm, termText } from "./normalise.ts";

/** The fields of a record the filters and orderings read: all but the contact. */
export type RecordFields = Omit<Subject, "institucija_email">;

/** Whether the filters ask more than the two keys do (a search, another filter, another order). */
export function isSearch(filters: Filters): boolean {
  return Object.keys(filters).some((key) => key !== "oib" && key !== "code");
}

const UTF8 = new TextDecoder();

/** A record's fields from its bytes (one rendered subject). */
export function recordFields(record: Uint8Array): RecordFields {
  return JSON.parse(UTF8.decode(record)) as RecordFields;
}

/** The search terms as they are found in a name or town (normalise.ts). */
export function termTexts(filters: Filters): string[] {
  return (filters.terms ?? []).map(termText);
}

/** Whether a record passes every filter and search term (`texts`: the filters' terms, termTexts). */
export function matchesRecord(r: RecordFields, filters: Filters, texts: readonly string[]): boolean {
  if (filters.oib !== undefined && r.oib !== filters.oib) return false;
  if (filters.code !== undefined && r.jedinstvena_oznaka !== filters.code) return false;
  if (filters.razina !== undefined && r.razina !== filters.razina) return false;
  if (filters.town !== undefined && r.institucija_grad !== filters.town) return false;
  if (filters.status !== undefined && r.status_subjekta !== filters.status) return false;
  if (filters.approved !== undefined && r.odobreno !== filters.approved) return false;
  if (filters.date !== undefined && r.datum_postanka !== filters.date) return false;
  if (filters.dateFrom !== undefined && r.datum_postanka < filters.dateFrom) return false;
  if (filters.dateTo !== undefined && r.datum_postanka > filters.dateTo) return false;
  if (texts.length === 0) return true;
  const name = searchForm(r.naziv_subjekta);
  const town = searchForm(r.institucija_grad);
  return texts.every((text) => name.includes(text) || town.includes(text));
}

const COLLATOR = new Intl.Collator("hr");

/**
 * PostgreSQL's order of two texts under a deterministic ICU collation (`varstr_cmp`): ICU's
 * (`hr-HR`: c < č < ć < d < dž < đ), and where ICU finds two different texts equal, their bytes
 * (UTF-8, so code points).
 */
export function compareText(a: string, b: string): number {
  if (a === b) return 0;
  return COLLATOR.compare(a, b) || compareCodePoints(a, b);
}

/**
 * The order of two values of an order field: compareText's (the collation, then code points).
 * Dates and digit codes order alike as plain text, so two texts of digits and dashes are compared
 * as text, far cheaper (test/site/search/order-files.test.ts holds the two orders equal there).
 */
export function compareOrderValues(a: string, b: string): number {
  if (a === b) return 0;
  return digitsOnly(a) && digitsOnly(b) ? (a < b ? -1 : 1) : compareText(a, b);
}

/** Two texts by code points (UTF-8 byte order, which UTF-16 units do not keep past U+D800). */
export function compareCodePoints(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.codePointAt(i) as number;
    const y = b.codePointAt(i) as number;
    if (x !== y) return x - y;
    if (x > 0xffff) i++;
  }
  return a.length - b.length;
}

/** The comparison of two records in the order the filters ask for (by id when none), `id` last. */
export function recordOrder(filters: Filters): (a: RecordFields, b: RecordFields) => number {
  const keys = filters.order?.keys ?? [];
  const idSign = filters.order?.idDescending === true ? -1 : 1;
  return (a, b) => {
    for (const { field, descending } of keys) {
      const c = compareField(field, a, b);
      if (c !== 0) return descending ? -c : c;
    }
    return idSign * (a.id - b.id);
  };
}

function compareField(field: OrderField, a: RecordFields, b: RecordFields): number {
  // Dates as text are in date order; the codes compare as text under the collation, as PostgreSQL's varchar does.
  return field === "datum_postanka" ? (a[field] < b[field] ? -1 : a[field] > b[field] ? 1 : 0) : compareText(a[field], b[field]);
}
