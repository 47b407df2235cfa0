/** The list's filters read as django-filter, SearchFilter and OrderingFilter read them (DRF 3.14, django-filter 23, Django 3.2). */
import { describe, expect, it } from "vitest";
import { lastValue, parseQuery } from "../../../src/core/request/read-query.ts";
import { parseDate, readFilters, readOrdering, searchTerms } from "../../../src/core/search/read-filters.ts";

const read = (query: string): ReturnType<typeof readFilters> => {
  const params = parseQuery(query);
  return readFilters((key) => lastValue(params, key));
};

describe("readFilters", () => {
  it.each([
    ["razina=lokalna", { razina: "lokalna" }],
    ["razina=", {}],
    ["razina=x&razina=nacionalna", { razina: "nacionalna" }],
    ["institucija_grad=%20Zagreb%20", { town: "Zagreb" }],
    ["institucija_grad=%20", {}],
    ["status_subjekta=TRUE&odobreno=0", { status: true, approved: false }],
    ["status_subjekta=1&odobreno=False", { status: true, approved: false }],
    ["status_subjekta=da&odobreno=2", {}],
    ["datum_postanka=2020-01-05", { date: "2020-01-05" }],
    ["datum_postanka__gte=%201%2F5%2F2020%20&datum_postanka__lte=Jan%205%202021", { dateFrom: "2020-01-05", dateTo: "2021-01-05" }],
    ["datum_postanka__lte=", {}],
    ["search=lado,zagreb", { terms: ["lado", "zagreb"] }],
    ["search=%20%2C%00", {}],
    ["oib=1&jedinstvena_oznaka=0002", { oib: "1", code: "0002" }],
  ])("%s -> %j", (query, filters) => {
    expect(read(query)).toEqual(filters);
  });

  it.each([
    ["razina=regionalna", { razina: ["Select a valid choice. regionalna is not one of the available choices."] }],
    ["razina=%20lokalna", { razina: ["Select a valid choice.  lokalna is not one of the available choices."] }],
    ["datum_postanka__gte=2020-02-30", { datum_postanka__gte: ["Enter a valid date."] }],
    ["datum_postanka=%20", { datum_postanka: ["Enter a valid date."] }],
    [
      "datum_postanka__lte=x&razina=x&institucija_grad=a%00&oib=%00",
      {
        oib: ["Null characters are not allowed."],
        razina: ["Select a valid choice. x is not one of the available choices."],
        institucija_grad: ["Null characters are not allowed."],
        datum_postanka__lte: ["Enter a valid date."],
      },
    ],
  ])("%s -> 400 %j, keys in the FilterSet's order", (query, errors) => {
    const read1 = read(query);
    expect(read1).toEqual({ errors });
    expect(Object.keys((read1 as { errors: object }).errors)).toEqual(Object.keys(errors));
  });
});

describe("searchTerms (SearchFilter.get_search_terms)", () => {
  it.each([
    ["lado,zagreb", ["lado", "zagreb"]],
    ["  a\u00a0b\u3000c\u001fd ", ["a", "b", "c", "d"]],
    ["a\u0000b", ["ab"]],
    [",,,", []],
    ["\u200bx", ["\u200bx"]],
  ])("%j -> %j", (value, terms) => {
    expect(searchTerms(value)).toEqual(terms);
  });
});

describe("readOrdering (OrderingFilter with id appended)", () => {
  it.each([
    [undefined, undefined],
    ["", undefined],
    ["nepostojece", undefined],
    ["id", undefined],
    ["-id", { keys: [], idDescending: true }],
    [
      " naziv_subjekta , -institucija_grad,x",
      {
        keys: [
          { field: "naziv_subjekta", descending: false },
          { field: "institucija_grad", descending: true },
        ],
        idDescending: false,
      },
    ],
    ["datum_postanka,-id,naziv_subjekta", { keys: [{ field: "datum_postanka", descending: false }], idDescending: true }],
    ["--naziv_subjekta,oib", undefined],
  ])("%j -> %j", (value, order) => {
    expect(readOrdering(value)).toEqual(order);
  });
});

describe("parseDate (DateField over DATE_INPUT_FORMATS)", () => {
  it.each([
    ["2020-01-05", "2020-01-05"],
    ["2020-1-5", "2020-01-05"],
    ["01/05/2020", "2020-01-05"],
    ["1/5/69", "1969-01-05"],
    ["1/5/68", "2068-01-05"],
    ["jan 5 2020", "2020-01-05"],
    ["5 January, 2020", "2020-01-05"],
    ["January  5 2020", "2020-01-05"],
    ["\u0662\u0660\u0662\u0660-01-05", "2020-01-05"],
    ["2020-02-29", "2020-02-29"],
    ["2019-02-29", null],
    ["0000-01-01", null],
    ["2020-01-05x", null],
    ["2020/01/05", null],
    ["", null],
  ])("%j -> %j", (value, date) => {
    expect(parseDate(value)).toBe(date);
  });
});
