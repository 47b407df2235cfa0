#!/usr/bin/env python3
"""Differential golden data for the pure core: what CPython (and DRF's code on it) answers.

Dev-only tool. Tests never run Python; they read the committed output. Regenerate with

    python3 test/oracle/python-golden.py > test/core/golden/python-cases.json

and review the diff. The output is deterministic (no clock, no randomness, no dict-order
surprises) and was generated with CPython 3.11 (Unicode 14.0). It records:

- ``int``: ``int(s)`` for a string -> its value as decimal digits, or null for ``ValueError``
  (what DRF's ``_positive_int`` sees for ``limit`` and ``offset``).
- ``parseQsl``: ``urllib.parse.parse_qsl(q, keep_blank_values=True)`` for a raw query, as
  Django's ``QueryDict`` reads it.
- ``pages``: for a query and a count, DRF's ``LimitOffsetPagination`` ``get_limit``,
  ``get_offset``, ``get_next_link`` and ``get_previous_link``, with DRF's
  ``replace_query_param`` / ``remove_query_param`` (rest_framework/utils/urls.py) and Django's
  ``build_absolute_uri`` (``iri_to_uri`` of the query) reimplemented below.
- ``json``: ``json.dumps(v, ensure_ascii=False, separators=(",", ":"))`` with the U+2028/U+2029
  replacement DRF's ``JSONRenderer.render`` applies.
- ``digitZeros``: every non-ASCII code point whose decimal value is 0 (each starts a run of
  ten digits); ``int()`` reads exactly these runs.
"""
import json
import sys
import unicodedata
from urllib import parse

BASE = "http://testserver"
PATH = "/api/subjekti/"
DEFAULT_LIMIT = 20
MAX_LIMIT = 1000


def python_int(text):
    try:
        return str(int(text))
    except ValueError:
        return None


# --- DRF: rest_framework/utils/urls.py -------------------------------------------------------

def replace_query_param(url, key, val):
    (scheme, netloc, path, query, fragment) = parse.urlsplit(str(url))
    query_dict = parse.parse_qs(query, keep_blank_values=True)
    query_dict[str(key)] = [str(val)]
    query = parse.urlencode(sorted(query_dict.items()), doseq=True)
    return parse.urlunsplit((scheme, netloc, path, query, fragment))


def remove_query_param(url, key):
    (scheme, netloc, path, query, fragment) = parse.urlsplit(str(url))
    query_dict = parse.parse_qs(query, keep_blank_values=True)
    query_dict.pop(key, None)
    query = parse.urlencode(sorted(query_dict.items()), doseq=True)
    return parse.urlunsplit((scheme, netloc, path, query, fragment))


# --- DRF: rest_framework/pagination.py ------------------------------------------------------

def _positive_int(integer_string, strict=False, cutoff=None):
    ret = int(integer_string)
    if ret < 0 or (ret == 0 and strict):
        raise ValueError()
    if cutoff:
        return min(ret, cutoff)
    return ret


def query_params(query):
    """Django's QueryDict: parse_qsl(keep_blank_values=True); [] gives the last value."""
    params = {}
    for key, value in parse.parse_qsl(query, keep_blank_values=True):
        params.setdefault(key, []).append(value)
    return {key: values[-1] for key, values in params.items()}


def build_absolute_uri(query):
    """Django's HttpRequest.build_absolute_uri() for PATH: iri_to_uri() of the raw query."""
    safe_query = parse.quote(query, safe="/#%[]=:;$&()+,!?*@'~")
    return BASE + PATH + ("?" + safe_query if query else "")


def drf_page(query, count):
    params = query_params(query)
    try:
        limit = _positive_int(params["limit"], strict=True, cutoff=MAX_LIMIT)
    except (KeyError, ValueError):
        limit = DEFAULT_LIMIT
    try:
        offset = _positive_int(params["offset"])
    except (KeyError, ValueError):
        offset = 0

    if offset + limit >= count:
        next_link = None
    else:
        url = replace_query_param(build_absolute_uri(query), "limit", limit)
        next_link = replace_query_param(url, "offset", offset + limit)

    if offset <= 0:
        previous = None
    else:
        url = replace_query_param(build_absolute_uri(query), "limit", limit)
        if offset - limit <= 0:
            previous = remove_query_param(url, "offset")
        else:
            previous = replace_query_param(url, "offset", offset - limit)

    return {
        "query": query,
        "count": count,
        "limit": limit,
        "offset": str(offset),
        "next": next_link,
        "previous": previous,
    }


# --- DRF: rest_framework/renderers.py (JSONRenderer) ----------------------------------------

def drf_json(value):
    text = json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


# --- inputs ---------------------------------------------------------------------------------

INT_INPUTS = [
    "0", "5", "20", "-0", "+0", "-5", "+5", "00", "007", "-007", "1000", "1001",
    "1_0", "1_000", "0_0", "1__0", "_1", "1_", "+_1", "-_1", "_", "1_0_0",
    "", " ", "+", "-", "++5", "+-5", "--5", "- 5", "+ 5", "5 5", "1 0",
    "2.5", "1.0", "1e1", "1E1", "0x10", "0o7", "0b1", "1j", "inf", "nan", "abc", "5L", "five",
    " 5", "5 ", "\t5\n", "\v5\f", "\r5\r", "\x1c5", "5\x1c", "\x1d5", "\x1e5", "\x1f5",
    "\x855", "5\x85", "\xa05", "5\xa0", "\u16805", "\u20005", "\u20035", "\u200a5", "\u200b5",
    "\u20285", "5\u2029", "\u202f5", "\u205f5", "\u30005", "5\u3000", "\ufeff5", "5\ufeff",
    "\u180e5", "\x005", "5\x00", "\x7f5", "5\x7f",
    " \u3000 -12 \xa0\t", "\u3000+\u30005",
    "\u0663", "\u0661\u0662", "\u0967\u0968", "\U0001D7D7", "\uff10", "\uff11\uff12",
    "1\u0663", "+\u0663", "-\u0663", " \u0663 ", "\u0663_\u0663", "\u09ea", "\u0e53",
    "\U0001D7CE", "\U0001D7E1", "\U0001D7FF", "\U0001FBF9", "\U0001E959",
    "\u00b2", "\u2167", "\u216b", "\u4e09", "\u00bd", "\u0660" * 3,
    "1" * 4300, "1" * 4301, "0" * 4299 + "1", "0" * 4300 + "1", "-" + "1" * 4300,
    "1_" * 4299 + "1", "1_" * 4300 + "1", " " * 10 + "9" * 4300 + " " * 10,
    "\u0661" * 4300, "\u0661" * 4301,
    "1" + "0" * 30, "-" + "1" + "0" * 30, "9007199254740993", "18446744073709551616",
]

QSL_INPUTS = [
    "", "a=1", "a=1&b=2", "a=1&a=2", "&&", "&a=1&&b=2&", "=x", "=", "==", "flag", "flag&x=",
    "a=1=2", "a==1", "a+b=c+d", "a%20b=c%20d", "a=+", "a=%2B", "%zz=%zz", "a=%", "a=%%",
    "a=%4", "a=%41%", "a=%G1", "a=%%41", "%C4%8D=%c4%8d", "a=%FF", "a=%C4", "a=%C4%zz%8D",
    "a=%E2%82", "a=%E2%82%AC", "a=%ED%A0%80", "a=%F0%80%80%80", "a=%C0%AF",
    "a=%F4%90%80%80", "a=%F0%9F%98%80", "a=%EF%BF%BD", "%EF%BB%BF=1", "%EF%BB%BFlimit=5",
    "a=%E2%80%A8", "a;b=c", "a=1;b=2", "a=%00", "a=%0A%0D", "%61=1", "LIMIT=5&Limit=6",
    "a=\u010d", "\u010d=\u017e%C4%8D", "a=%C4\u010d%8D", "a=\U0001F600",
]

PAGE_INPUTS = [
    ("", 2000), ("", 0), ("", 20), ("", 21), ("", 45),
    ("limit=5&format=api&zeta=1&Alpha=x%20y&e=%C4%8D&s=a/b&flag", 2000),
    ("format=api", 2000), ("format=json&offset=40", 2000), ("format=api&offset=20", 2000),
    ("format=", 2000), ("format=api&format=json", 2000),
    ("limit=0", 2000), ("limit=-1", 2000), ("limit=abc", 2000), ("limit=", 2000),
    ("limit=5000", 2000), ("limit=1000", 2000), ("limit=1001&offset=1000", 3000),
    ("limit=1_0&offset=2_0", 2000), ("limit=%201%20", 2000), ("limit=%D9%A3&offset=%D9%A3", 2000),
    ("limit=5&limit=7", 2000), ("offset=5&offset=-1", 2000), ("offset=-1", 2000),
    ("offset=abc", 2000), ("offset=0", 2000), ("offset=0&limit=5", 2000),
    ("offset=3&limit=5", 2000), ("offset=5&limit=5", 2000), ("offset=6&limit=5", 2000),
    ("offset=1995&limit=5", 2000), ("offset=1996&limit=5", 2000), ("offset=2000", 2000),
    ("offset=2005", 2000), ("offset=2005&limit=5", 2000), ("offset=1", 0), ("offset=25", 0),
    ("offset=1000000000000000000000000000000", 2000),
    ("offset=1000000000000000000000000000000&limit=7", 2000),
    ("LIMIT=5&Offset=7", 2000), ("%6Cimit=5&%6Fffset=10", 2000),
    ("b=2&a=1&b=1&a=2", 2000), ("z=1&=x&flag&=y", 2000),
    ("%F0%9F%98%80=1&%EF%BF%BD=2&%EE%80%80=3&%ED%9F%BF=4&a=5", 2000),
    ("%C4%8D=1&c=2&d=3&%C3%A9=4&E=5", 2000),
    ("a=%FF&b=%zz&c=%&d=+&e=%2B&f=%20", 2000),
    ("q=a%2Fb%3Fc%3Dd%26e%23f&x=~._-", 2000),
    ("q={x}|^`\\&r=%22", 2000), ("q=it's(1)!*", 2000),
    ("a=%E2%80%A8%E2%80%A9", 2000), ("%EF%BB%BFa=1", 2000),
    ("a=1&&&b=2&", 2000), ("limit=3&offset=4&extra=%00", 10),
]

JSON_INPUTS = [
    "", "plain", "\u010d\u0107\u017e\u0161\u0111 \u010c\u0106\u017d\u0160\u0110", "\"quoted\"",
    "back\\slash", "a/b", "<script>&'", "\u2028", "\u2029", "x\u2028y\u2029z", "\x7f", "\x80",
    "\x9f", "\xa0", "\ufeff", "\ud7ff", "\ue000", "\uffff", "\U0001F600", "\U0010FFFF",
    "".join(chr(c) for c in range(0x20)), "tab\there", "line\nbreak", "\r\n", "\b\f",
    None, True, False, 0, 1, -1, 2000, 9007199254740991, [], {}, ["a", 1, None],
    {"count": 2000, "next": BASE + PATH + "?limit=20&offset=20", "previous": None, "results": []},
    {"detail": "Method \"POST\" not allowed."},
    {
        "id": 1, "jedinstvena_oznaka": "0001", "naziv_subjekta": "Grad \u010cakovec \u2028 \"x\"",
        "oib": "01234567890", "razina": "lokalna", "datum_postanka": "2020-01-31",
        "status_subjekta": True, "odobreno": False, "institucija_grad": "\u010cakovec",
        "institucija_email": "a@b.hr, c@d.hr",
    },
]


def main():
    zeros = [c for c in range(0x80, sys.maxunicode + 1) if unicodedata.decimal(chr(c), None) == 0]
    golden = {
        "python": "%d.%d.%d" % sys.version_info[:3],
        "unicode": unicodedata.unidata_version,
        "baseUrl": BASE,
        "maxLimit": MAX_LIMIT,
        "digitZeros": zeros,
        "int": [{"input": s, "value": python_int(s)} for s in INT_INPUTS],
        "parseQsl": [
            {"query": q, "pairs": [list(p) for p in parse.parse_qsl(q, keep_blank_values=True)]}
            for q in QSL_INPUTS
        ],
        "pages": [drf_page(q, n) for q, n in PAGE_INPUTS],
        "json": [{"value": v, "json": drf_json(v)} for v in JSON_INPUTS],
    }
    # ensure_ascii=True keeps the golden file plain ASCII, whatever the cases hold.
    sys.stdout.write(json.dumps(golden, ensure_ascii=True, indent=1) + "\n")


if __name__ == "__main__":
    main()
