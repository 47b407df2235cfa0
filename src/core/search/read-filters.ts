/**
 * The list's filters as DRF's three backends read them from the query (the view's
 * `filter_backends = [DjangoFilterBackend, SearchFilter, StableOrderingFilter]`):
 *
 * - django-filter's FilterSet of `filterset_fields`: exact `CharFilter`s on `oib`,
 *   `jedinstvena_oznaka` and `institucija_grad` (stripped, empty = none, a NUL refused); a
 *   `ChoiceFilter` on `razina` (the model's choices: anything else is a 400); `BooleanFilter`s on
 *   `status_subjekta` and `odobreno` (django-filter's `BooleanWidget`: a value it cannot read is
 *   no filter); `DateFilter`s on `datum_postanka` exact, `__gte` and `__lte` (Django's
 *   `DATE_INPUT_FORMATS`, else "Enter a valid date."). Every invalid field is reported in one
 *   400, in the FilterSet's field order.
 * - `SearchFilter.get_search_terms`: the last `search`, NULs removed, commas as spaces, Python's
 *   `str.split()`.
 * - `OrderingFilter.get_ordering`: the last `ordering` split on commas, each stripped, unknown
 *   fields dropped, none left: by id. `id` appended when neither `id` nor `-id` is asked for.
 */
import { toAsciiDigit } from "../request/python-int.ts";
import { isStrSpace, trimBy } from "../request/trim-spaces.ts";

/** A field the list can be ordered by (besides `id`). */
export type OrderField = "jedinstvena_oznaka" | "naziv_subjekta" | "institucija_grad" | "datum_postanka";
export const ORDER_FIELDS: readonly OrderField[] = ["jedinstvena_oznaka", "naziv_subjekta", "institucija_grad", "datum_postanka"];

/** One key of the order: a field, ascending or not. */
export interface OrderKey {
  readonly field: OrderField;
  readonly descending: boolean;
}

/** The filters of a request, each absent when not asked (empty values are no filter). */
export interface Filters {
  readonly oib?: string;
  readonly code?: string;
  readonly razina?: string;
  readonly town?: string;
  readonly status?: boolean;
  readonly approved?: boolean;
  /** `datum_postanka` exact, `__gte`, `__lte` as `YYYY-MM-DD`. */
  readonly date?: string;
  readonly dateFrom?: string;
  readonly dateTo?: string;
  /** The search terms (`SearchFilter`): every one must be found in the name or the town. */
  readonly terms?: readonly string[];
  /**
   * The order's keys before `id`, and whether `id` then descends (`-id` asked for). Absent: by id
   * ascending, the default.
   */
  readonly order?: { readonly keys: readonly OrderKey[]; readonly idDescending: boolean };
}

export type FilterErrors = Record<string, readonly string[]>;

/** The model's choices of `razina`. */
export const RAZINA_CHOICES: readonly string[] = ["lokalna", "nacionalna"];

const NUL_ERROR = ["Null characters are not allowed."];
const DATE_ERROR = ["Enter a valid date."];

/** The filters a query asks for (`value(key)`: a parameter's last value, as `QueryDict` gives it), or the FilterSet's errors. */
export function readFilters(value: (key: string) => string | undefined): Filters | { readonly errors: FilterErrors } {
  const errors: FilterErrors = {};
  const filters: { -readonly [K in keyof Filters]: Filters[K] } = {};
  const char = (key: string): string | undefined => {
    const text = trimBy(value(key) ?? "", isStrSpace);
    if (text.includes("\0")) errors[key] = NUL_ERROR;
    return text === "" || text.includes("\0") ? undefined : text;
  };
  const oib = char("oib");
  const code = char("jedinstvena_oznaka");
  // ChoiceField: no strip; "" is the empty choice (no filter); anything else must be a choice.
  const razina = value("razina") ?? "";
  if (razina !== "" && !RAZINA_CHOICES.includes(razina)) {
    errors["razina"] = [`Select a valid choice. ${razina} is not one of the available choices.`];
  }
  const town = char("institucija_grad");
  const status = nullBoolean(value("status_subjekta"));
  const approved = nullBoolean(value("odobreno"));
  const date = (key: string): string | undefined => {
    const text = value(key);
    if (text === undefined || text === "") return undefined;
    const parsed = parseDate(text);
    if (parsed === null) errors[key] = DATE_ERROR;
    return parsed ?? undefined;
  };
  const exact = date("datum_postanka");
  const from = date("datum_postanka__gte");
  const to = date("datum_postanka__lte");
  if (Object.keys(errors).length > 0) return { errors };
  if (oib !== undefined) filters.oib = oib;
  if (code !== undefined) filters.code = code;
  if (razina !== "") filters.razina = razina;
  if (town !== undefined) filters.town = town;
  if (status !== undefined) filters.status = status;
  if (approved !== undefined) filters.approved = approved;
  if (exact !== undefined) filters.date = exact;
  if (from !== undefined) filters.dateFrom = from;
  if (to !== undefined) filters.dateTo = to;
  const terms = searchTerms(value("search") ?? "");
  if (terms.length > 0) filters.terms = terms;
  const order = readOrdering(value("ordering"));
  if (order !== undefined) filters.order = order;
  return filters;
}

/** django-filter's `BooleanWidget.value_from_datadict` (its REST framework `BooleanFilter`): lower-cased, these spellings only; any other is no filter. */
function nullBoolean(value: string | undefined): boolean | undefined {
  const lower = value?.toLowerCase();
  if (lower === "true" || lower === "1") return true;
  if (lower === "false" || lower === "0") return false;
  return undefined;
}

/** DRF 3.14's `SearchFilter.get_search_terms`. */
export function searchTerms(value: string): string[] {
  const text = value.replaceAll("\0", "").replaceAll(",", " ");
  const terms: string[] = [];
  let start = -1;
  for (let i = 0; i <= text.length; i++) {
    const isSpace = i === text.length || isStrSpace(text.charCodeAt(i));
    if (isSpace && start >= 0) {
      terms.push(text.slice(start, i));
      start = -1;
    } else if (!isSpace && start < 0) start = i;
  }
  return terms;
}

/** DRF's `OrderingFilter.get_ordering` with `ordering_fields` and `id` appended (StableOrderingFilter); undefined: by id ascending. */
export function readOrdering(value: string | undefined): Filters["order"] {
  if (value === undefined || value === "") return undefined;
  const keys: OrderKey[] = [];
  for (const part of value.split(",")) {
    const term = trimBy(part, isStrSpace);
    const descending = term.startsWith("-");
    const field = descending ? term.slice(1) : term;
    if (field === "id") {
      // The id is unique: nothing after it changes the order.
      if (keys.length === 0 && !descending) return undefined;
      return { keys, idDescending: descending };
    }
    if ((ORDER_FIELDS as readonly string[]).includes(field)) keys.push({ field: field as OrderField, descending });
  }
  return keys.length === 0 ? undefined : { keys, idDescending: false };
}

// Python's `time.strptime` as Django's `DateField` calls it over DATE_INPUT_FORMATS (its regexes
// from `_strptime.TimeRE`, compiled with IGNORECASE; `\d` is any Unicode decimal digit, a space in
// the format any run of whitespace), the match anchored at the start and refused when text remains.
const D = "\\p{Nd}";
const S = "[\\t-\\r\\x1c-\\x20\\x85\\xa0\\u1680\\u2000-\\u200a\\u2028\\u2029\\u202f\\u205f\\u3000]+";
const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];
const byLength = (names: readonly string[]): string => [...names].sort((a, b) => b.length - a.length).join("|");
const PARTS: Record<string, string> = {
  Y: `(?<Y>${D}${D}${D}${D})`,
  m: "(?<m>1[0-2]|0[1-9]|[1-9])",
  d: `(?<d>3[01]|[12]${D}|0[1-9]|[1-9]| [1-9])`,
  y: `(?<y>${D}${D})`,
  b: `(?<b>${byLength(MONTHS.map((m) => m.slice(0, 3)))})`,
  B: `(?<B>${byLength(MONTHS)})`,
};
const DATE_INPUT_FORMATS = [
  "%Y-%m-%d",
  "%m/%d/%Y",
  "%m/%d/%y",
  "%b %d %Y",
  "%b %d, %Y",
  "%d %b %Y",
  "%d %b, %Y",
  "%B %d %Y",
  "%B %d, %Y",
  "%d %B %Y",
  "%d %B, %Y",
];
const FORMAT_PATTERNS = DATE_INPUT_FORMATS.map(
  (format) => new RegExp(`^${format.replace(/%([YmdybB])/g, (_, c: string) => PARTS[c] ?? "").replaceAll(" ", S)}`, "iu"),
);

/** A date value as Django's `DateField.to_python` reads it (`str.strip()`, then each format), as `YYYY-MM-DD`; null when invalid. */
export function parseDate(value: string): string | null {
  const text = trimBy(value, isStrSpace);
  for (const pattern of FORMAT_PATTERNS) {
    const match = pattern.exec(text);
    if (match === null || match[0].length !== text.length) continue;
    const g = match.groups ?? {};
    const number = (digits: string): number => Number(digits.replace(/[^0-9 ]/gu, toAsciiDigit).trim());
    let year: number;
    if (g["Y"] !== undefined) year = number(g["Y"]);
    else {
      // `%y`: 69-99 are 1969-1999, 0-68 are 2000-2068 (POSIX).
      const short = number(g["y"] ?? "");
      year = short <= 68 ? short + 2000 : short + 1900;
    }
    const monthName = (g["b"] ?? g["B"])?.toLowerCase();
    const month = monthName === undefined ? number(g["m"] ?? "") : MONTHS.findIndex((m) => m.startsWith(monthName.slice(0, 3))) + 1;
    const day = number(g["d"] ?? "");
    if (year < 1 || month < 1 || day > daysIn(year, month)) continue;
    return `${String(year).padStart(4, "0")}-${String(month).padStart(2, "0")}-${String(day).padStart(2, "0")}`;
  }
  return null;
}

function daysIn(year: number, month: number): number {
  if (month === 2) return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0 ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}
