#!/usr/bin/python3
"""Golden answers from the real Django REST Framework, for the request table and the core.

Dev-only tool. Tests never run Python; they read the committed output. Needs Debian's
python3-django and python3-djangorestframework (apt-get install them; they run under
/usr/bin/python3). Regenerate with

    /usr/bin/python3 test/oracle/drf-golden.py > test/core/golden/drf-answers.json

and review the diff. It serves the host tests' fixture list (test/fixtures/hosts-site/data) from the
real DRF application of drf_app.py (SQLite in memory, django-filter's exact filters on ``oib``
and ``jedinstvena_oznaka``, ``max_limit`` 25). Needs Debian's python3-django-filters too.
``--postgres`` answers from the contract's searching view on PostgreSQL instead (pg_cluster.py):
the same answers but one, an id past 64-bit integers, which SQLite's driver answers with a 500
and PostgreSQL with the 404 the request table expects. It records:

- ``answers``: for each raw request to the list, the status, the headers the contract names and the body;
- ``routes``: the same for the router's other routes (one subject, the API root, format suffixes)
  and the filters;
- ``disallowedHost``: every header and the body of the answer to a ``Host`` that ``ALLOWED_HOSTS``
  does not name (Django's ``DisallowedHost``, DEBUG off), for ``subjekti serve --allowed-hosts``;
- ``accept``: for each Accept header, what DRF's ``DefaultContentNegotiation`` and
  ``JSONRenderer.get_indent`` make of it: acceptable or not (406), and the indent.

The output is deterministic except where DRF is not: an Accept header whose best media ranges tie
in precedence is resolved through a Python set, so it is left out here.
"""
import json
import os
import sys

import drf_app

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "fixtures", "hosts-site", "data", "subjekti.json")
POSTGRES = "--postgres" in sys.argv[1:]

if POSTGRES:
    import atexit
    import contextlib

    import pg_cluster

    # Stopped and removed at exit, also after an error.
    _cluster = contextlib.ExitStack()
    atexit.register(_cluster.close)
    APP = drf_app.setup(DATA, 25, search=True, pg_host=_cluster.enter_context(pg_cluster.cluster()))
else:
    APP = drf_app.setup(DATA, 25)
answer = APP.answer

import django  # noqa: E402
from rest_framework.negotiation import DefaultContentNegotiation  # noqa: E402
from rest_framework.renderers import JSONRenderer  # noqa: E402

P = b"/api/subjekti/"
INDENT = "application/json; indent={}"

ANSWERS = [
    # Accept with an indent: JSONRenderer pretty-prints (0 is compact, clamped to 8).
    *[
        answer(f"Accept {INDENT.format(n)}", "GET", P + b"?limit=2&offset=3", {"Accept": INDENT.format(n)})
        for n in ["0", "1", "4", "8", "9", "x", "-1", " 2 ", '"3"', "\u0663"]
    ],
    answer("Accept */*; indent=3 -> indent 3", "GET", P + b"?limit=1", {"Accept": "*/*; indent=3"}),
    answer("Accept application/*; indent=2 -> indent 2", "GET", P + b"?limit=1&offset=52", {"Accept": "application/*; indent=2"}),
    answer("Accept application/json, */*; indent=4 -> compact (the more specific range wins)", "GET", P + b"?limit=1", {"Accept": "application/json, */*; indent=4"}),
    answer("Accept text/html, application/json; indent=4 -> indent 4", "GET", P + b"?limit=1", {"Accept": "text/html, application/json; indent=4"}),
    answer("indent 4, first page (pre-rendered when compact)", "GET", P, {"Accept": INDENT.format(4)}),
    answer("indent 2, the U+2028 record -> still escaped", "GET", P + b"?limit=1&offset=10", {"Accept": INDENT.format(2)}),
    answer("indent 2, the U+2029 and astral record", "GET", P + b"?limit=1&offset=27", {"Accept": INDENT.format(2)}),
    answer("indent 4, past the end -> empty results", "GET", P + b"?offset=2005", {"Accept": INDENT.format(4)}),
    answer("indent 4, HEAD -> the pretty page's length", "HEAD", P + b"?limit=2", {"Accept": INDENT.format(4)}),
    answer("indent 4, OPTIONS -> pretty metadata", "OPTIONS", P, {"Accept": INDENT.format(4)}),
    answer("indent 4, POST -> pretty 405", "POST", P, {"Accept": INDENT.format(4)}),
    answer("indent 4, format=xml -> compact 404 (negotiation failed)", "GET", P + b"?format=xml", {"Accept": INDENT.format(4)}),
    answer("indent 4, format=json -> pretty", "GET", P + b"?format=json&limit=1", {"Accept": INDENT.format(4)}),
    answer("Accept text/html; indent=4 -> 406, compact", "GET", P, {"Accept": "text/html; indent=4"}),
    # Paths as sent, percent-decoded and nothing else.
    *[
        answer(f"{t.decode()} -> as Django matches it", "GET", t)
        for t in [
            b"/api/subjekti/./",
            b"/api/subjekti/.",
            b"/api/subjekti/%2e",
            b"/api/subjekti/%2E/",
            b"/api/x/../subjekti/",
            b"/api/x/../subjekti",
            b"/api/subjekti/x/..",
            b"/api/%73ubjekti/",
            b"/api/%73ubjekti?limit=1",
            b"/api/subjekti%2F",
            b"/api\\subjekti/",
        ]
    ],
    # Raw bytes in the query: values as QueryDict reads them, links byte by byte as latin-1.
    answer("raw UTF-8 in a value", "GET", P + "?ime=čć&limit=7".encode(), reencoded=True),
    answer("raw UTF-8 in a key", "GET", P + "?čć=1&limit=7".encode(), reencoded=True),
    answer("raw UTF-8 U+FFFD key", "GET", P + b"?\xef\xbf\xbd=1", reencoded=True),
    answer("raw UTF-8 Arabic-Indic three as limit -> 3", "GET", P + "?limit=\u0663".encode(), reencoded=True),
    answer("raw Latin-1 in a value", "GET", P + b"?x=\xe9&limit=3", reencoded=True),
    answer("raw Latin-1 in a key", "GET", P + b"?\xe9=1&limit=3", reencoded=True),
    answer("raw \\x80 in a value", "GET", P + b"?x=\x80", reencoded=True),
    answer("raw limit=25\\xe9 -> not an integer", "GET", P + b"?limit=25\xe9", reencoded=True),
    answer("raw Latin-1 elsewhere makes the raw UTF-8 limit Latin-1 too", "GET", P + "?limit=\u0663".encode() + b"&x=\xff", reencoded=True),
    answer("raw Latin-1 beside percent-encoded UTF-8", "GET", P + b"?a=%C4%8D&b=\xe9&limit=2", reencoded=True),
    answer("raw Latin-1 in a redirect's query", "GET", b"/api/subjekti?x=\xe9", reencoded=True),
    answer("raw format=\\xe9 -> 404", "GET", P + b"?format=\xe9", reencoded=True),
    # The Host as sent, case kept.
    answer("Host: TestServer -> links on http://TestServer", "GET", P + b"?limit=2&offset=2", {"Host": "TestServer"}),
    answer("Host: LocalHost:8080 -> links on http://LocalHost:8080", "GET", P + b"?limit=2&offset=2", {"Host": "LocalHost:8080"}),
]

# The router's other routes: one subject by its key, the API root, format suffixes, the filters.
D = P + b"5/"
OIB = b"19960308249"
ROUTES = [
    answer("detail: a subject", "GET", D),
    answer("detail: the first subject", "GET", P + b"4/"),
    answer("detail: the last subject", "GET", P + b"132/"),
    answer("detail: the U+2028 subject", "GET", P + b"28/"),
    answer("detail: the U+2029 and astral subject, indent 2", "GET", P + b"60/", {"Accept": INDENT.format(2)}),
    answer("detail: an id between two subjects -> 404", "GET", P + b"6/"),
    answer("detail: an id past the last -> 404", "GET", P + b"999999/"),
    answer("detail: id 0 -> 404", "GET", P + b"0/"),
    answer("detail: not a number -> 404", "GET", P + b"abc/"),
    answer("detail: 05 -> int() reads 5", "GET", P + b"05/"),
    answer("detail: +5 -> int() reads 5", "GET", P + b"+5/"),
    answer("detail: %2B5 -> int() reads 5", "GET", P + b"%2B5/"),
    answer("detail: -4 -> 404", "GET", P + b"-4/"),
    answer("detail: 1_3 -> int() reads 13", "GET", P + b"1_3/"),
    answer("detail: %205 (a space) -> int() reads 5", "GET", P + b"%205/"),
    answer("detail: Arabic-Indic five -> int() reads 5", "GET", P + "\u0665/".encode(), reencoded=True),
    answer("detail: %D9%A5 (Arabic-Indic five) -> int() reads 5", "GET", P + b"%D9%A5/"),
    answer("detail: 5.0 -> the suffix pattern, format 0 -> 404", "GET", P + b"5.0/"),
    answer("detail: without the slash -> 301", "GET", P + b"5"),
    answer("detail: without the slash, with a query -> 301", "GET", P + b"5?format=json"),
    answer("detail: an unknown id without the slash -> 301", "GET", P + b"abc"),
    # APPEND_SLASH's Location is get_full_path: bytes that are not UTF-8 were re-percented (repercent_broken_unicode), then quoted again.
    answer("detail: %C0 without the slash -> 301 to %25C0/", "GET", P + b"%C0"),
    answer("detail: %C0 without the slash, with a query -> 301", "GET", P + b"%C0?x=%C0&y=%C3%A9"),
    answer("detail: %C3%A9 (UTF-8) without the slash -> 301 to %C3%A9/", "GET", P + b"%C3%A9"),
    answer("detail: UTF-8, then a broken byte, then ASCII, without the slash -> 301", "GET", P + b"%C3%A9%C0x"),
    answer("detail: a cut sequence %E2%82 without the slash -> 301", "GET", P + b"%E2%82"),
    answer("detail: a surrogate %ED%A0%80 without the slash -> 301", "GET", P + b"%ED%A0%80"),
    answer("detail: past U+10FFFF %F4%90%80%80 without the slash -> 301", "GET", P + b"%F4%90%80%80"),
    answer("detail: an overlong %E0%80%AF without the slash -> 301", "GET", P + b"%E0%80%AF"),
    answer("detail: a 4-byte sequence and a cut one without the slash -> 301", "GET", P + b"%F0%9F%98%80%F0%9F%98"),
    answer("detail: two segments -> 404", "GET", P + b"5/x/"),
    answer("detail: HEAD", "HEAD", D),
    answer("detail: OPTIONS -> Subjekt Instance", "OPTIONS", D),
    answer("detail: OPTIONS of a missing id -> still the metadata", "OPTIONS", P + b"999999/"),
    answer("detail: OPTIONS, indent 4", "OPTIONS", D, {"Accept": INDENT.format(4)}),
    *[answer(f"detail: {m} -> 405", m, D) for m in ["POST", "PUT", "PATCH", "DELETE"]],
    answer("detail: POST to a missing id -> 405", "POST", P + b"999999/"),
    answer("detail: Accept indent=4", "GET", D, {"Accept": INDENT.format(4)}),
    answer("detail: Accept text/html -> 406", "GET", D, {"Accept": "text/html"}),
    answer("detail: a missing id, Accept text/html -> 406 first", "GET", P + b"999999/", {"Accept": "text/html"}),
    # Every error after the negotiation is indented as a page is; one before it (a bad format) is compact.
    answer("detail: a missing id, indent 2 -> pretty 404", "GET", P + b"999999/", {"Accept": INDENT.format(2)}),
    answer("detail: not a number, indent 2 -> pretty 404", "GET", P + b"abc/", {"Accept": INDENT.format(2)}),
    answer("detail: another subject's oib, indent 2 -> pretty 404", "GET", D + b"?oib=" + OIB, {"Accept": INDENT.format(2)}),
    answer("detail: POST, indent 2 -> pretty 405", "POST", D, {"Accept": INDENT.format(2)}),
    answer("detail: .xml, indent 2 -> compact 404", "GET", P + b"5.xml", {"Accept": INDENT.format(2)}),
    answer("detail: a missing id, format=xml, indent 2 -> compact 404", "GET", P + b"999999/?format=xml", {"Accept": INDENT.format(2)}),
    answer("filter: oib, a NUL, indent 2 -> pretty 400", "GET", P + b"?oib=%00", {"Accept": INDENT.format(2)}),
    answer("detail: a NUL in the filter, indent 2 -> pretty 400", "GET", D + b"?jedinstvena_oznaka=%00", {"Accept": INDENT.format(2)}),
    answer("root: POST, indent 2 -> pretty 405", "POST", b"/api/", {"Accept": INDENT.format(2)}),
    answer("detail: format=json", "GET", D + b"?format=json"),
    answer("detail: format=api", "GET", D + b"?format=api"),
    answer("detail: format=xml -> 404", "GET", D + b"?format=xml"),
    answer("detail: a missing id, format=xml -> 404", "GET", P + b"999999/?format=xml"),
    answer("detail: limit and offset mean nothing", "GET", D + b"?limit=1&offset=3"),
    answer("detail: the filters apply: a matching oib", "GET", P + b"8/?oib=" + OIB),
    answer("detail: the filters apply: another subject's oib -> 404", "GET", D + b"?oib=" + OIB),
    answer("detail: the filters apply: another code -> 404", "GET", D + b"?jedinstvena_oznaka=0001"),
    answer("detail: .json", "GET", P + b"5.json"),
    answer("detail: .json/", "GET", P + b"5.json/"),
    answer("detail: .api", "GET", P + b"5.api"),
    answer("detail: .xml -> 404", "GET", P + b"5.xml"),
    answer("detail: .JSON -> no route", "GET", P + b"5.JSON"),
    answer("detail: .json of a missing id -> 404", "GET", P + b"999999.json"),
    answer("detail: .json with format=api -> the suffix wins", "GET", P + b"5.json?format=api"),
    answer("detail: .json with format=xml", "GET", P + b"5.json?format=xml"),
    answer("detail: .json, HEAD", "HEAD", P + b"5.json"),
    answer("detail: .json, OPTIONS", "OPTIONS", P + b"5.json"),
    answer("detail: a number past SQLite's integers", "GET", P + b"99999999999999999999/"),
    answer("detail: 1e3 -> 404", "GET", P + b"1e3/"),
    answer("detail: 0x5 -> 404", "GET", P + b"0x5/"),
    answer("detail: an em space before -> int() reads 5", "GET", P + b"%E2%80%835/"),
    answer("detail: format= (empty)", "GET", D + b"?format="),
    answer("detail: an id with an encoded slash -> 404", "GET", P + b"5%2F/"),
    answer("detail: a newline after the slash -> no route", "GET", P + b"5/%0A"),
    answer("detail: a newline after the id -> int() reads 5", "GET", P + b"5%0A/"),
    answer("list: .json and a newline -> no route", "GET", b"/api/subjekti.json%0A"),
    answer("root: a newline -> no route", "GET", b"/api/%0A"),
    answer("root", "GET", b"/api/"),
    answer("root: format= (empty)", "GET", b"/api/?format="),
    answer("root: format=api", "GET", b"/api/?format=api"),
    answer("root: format twice -> the last", "GET", b"/api/?format=json&format=api"),
    answer("root: .json with format=api", "GET", b"/api/.json?format=api"),
    answer("root: format=json&x=1 -> only format kept", "GET", b"/api/?x=1&format=json"),
    answer("root: HEAD", "HEAD", b"/api/"),
    answer("root: OPTIONS -> Api Root", "OPTIONS", b"/api/"),
    answer("root: POST -> 405", "POST", b"/api/"),
    answer("root: indent 2", "GET", b"/api/", {"Accept": INDENT.format(2)}),
    answer("root: Accept text/html -> 406", "GET", b"/api/", {"Accept": "text/html"}),
    answer("root: format=json", "GET", b"/api/?format=json"),
    answer("root: format=xml -> 404", "GET", b"/api/?format=xml"),
    answer("root: limit means nothing", "GET", b"/api/?limit=2"),
    answer("root: Host: LocalHost:8080", "GET", b"/api/", {"Host": "LocalHost:8080"}),
    answer("root: .json", "GET", b"/api/.json"),
    answer("root: .json/", "GET", b"/api/.json/"),
    answer("root: .api", "GET", b"/api/.api"),
    answer("root: .xml -> 404", "GET", b"/api/.xml"),
    answer("root: without the slash -> 301", "GET", b"/api"),
    answer("root: /api/.json, HEAD", "HEAD", b"/api/.json"),
    answer("list: .json", "GET", b"/api/subjekti.json"),
    answer("list: .json/", "GET", b"/api/subjekti.json/"),
    answer("list: .json, second page", "GET", b"/api/subjekti.json?limit=2&offset=2"),
    answer("list: .api", "GET", b"/api/subjekti.api?limit=1"),
    answer("list: .xml -> 404", "GET", b"/api/subjekti.xml"),
    answer("list: .JSON -> no route", "GET", b"/api/subjekti.JSON"),
    answer("list: .json with format=api", "GET", b"/api/subjekti.json?format=api&limit=1"),
    answer("list: .json, OPTIONS", "OPTIONS", b"/api/subjekti.json"),
    answer("list: .json, POST -> 405", "POST", b"/api/subjekti.json"),
    answer("list: .json, indent 2", "GET", b"/api/subjekti.json?limit=1", {"Accept": INDENT.format(2)}),
    answer("filter: oib", "GET", P + b"?oib=" + OIB),
    answer("filter: oib, indent 2", "GET", P + b"?oib=" + OIB, {"Accept": INDENT.format(2)}),
    answer("filter: oib, no match", "GET", P + b"?oib=12345678903"),
    answer("filter: oib, not an OIB", "GET", P + b"?oib=x"),
    answer("filter: oib, empty -> every subject, oib= kept in the links", "GET", P + b"?oib="),
    answer("filter: oib, empty, with limit and offset", "GET", P + b"?oib=&limit=2&offset=4"),
    answer("filter: oib, a space -> stripped, no filter", "GET", P + b"?oib=%20"),
    answer("filter: oib with spaces around -> stripped", "GET", P + b"?oib=%20" + OIB + b"%20"),
    answer("filter: oib with a tab and an NBSP around", "GET", P + b"?oib=%09" + OIB + b"%C2%A0"),
    answer("filter: oib, a NUL -> 400", "GET", P + b"?oib=%00"),
    answer("filter: oib twice -> the last", "GET", P + b"?oib=x&oib=" + OIB),
    answer("filter: oib twice, the last empty -> no filter", "GET", P + b"?oib=" + OIB + b"&oib="),
    answer("filter: oib, offset past the matches", "GET", P + b"?oib=" + OIB + b"&offset=1"),
    answer("filter: oib, limit=1&offset=0", "GET", P + b"?oib=" + OIB + b"&limit=1&offset=0"),
    answer("filter: oib, limit=0", "GET", P + b"?limit=0&oib=" + OIB),
    answer("filter: oib, bad limit", "GET", P + b"?limit=x&oib=" + OIB),
    answer("filter: oib, format=json", "GET", P + b"?format=json&oib=" + OIB),
    answer("filter: oib, format=xml -> 404", "GET", P + b"?format=xml&oib=" + OIB),
    answer("filter: oib, HEAD", "HEAD", P + b"?oib=" + OIB),
    answer("filter: oib, OPTIONS -> the list's metadata", "OPTIONS", P + b"?oib=" + OIB),
    answer("filter: OIB (another name) -> no filter", "GET", P + b"?OIB=" + OIB + b"&limit=1"),
    answer("filter: oib percent-encoded", "GET", P + b"?oib=%31%39960308249"),
    answer("filter: oib with a plus (a space) -> stripped", "GET", P + b"?oib=+" + OIB),
    answer("filter: code", "GET", P + b"?jedinstvena_oznaka=0002"),
    answer("filter: code without its zeros -> no match", "GET", P + b"?jedinstvena_oznaka=2"),
    answer("filter: code, empty", "GET", P + b"?jedinstvena_oznaka=&limit=1"),
    answer("filter: code and oib of one subject", "GET", P + b"?jedinstvena_oznaka=0003&oib=" + OIB),
    answer("filter: code and oib of two subjects -> none", "GET", P + b"?jedinstvena_oznaka=0002&oib=" + OIB),
    answer("filter: code and an empty oib", "GET", P + b"?jedinstvena_oznaka=0003&oib="),
    answer("filter: on .json", "GET", b"/api/subjekti.json?oib=" + OIB),
    answer("filter: raw Latin-1 in another parameter", "GET", P + b"?oib=" + OIB + b"&x=\xe9", reencoded=True),
    answer("filter: raw UTF-8 value -> no match", "GET", P + "?oib=čć".encode(), reencoded=True),
    answer("filter: Arabic-Indic digits -> no match", "GET", P + b"?oib=%D9%A1%D9%A9960308249"),
]


def disallowed_host():
    """Django's answer when ALLOWED_HOSTS does not name the Host: every header, in order, and the body."""
    from django.test.utils import override_settings

    with override_settings(ALLOWED_HOSTS=["testserver"]):
        status, headers, body = APP.call("GET", P, {"Host": "evil.example"})
    return {"host": "evil.example", "allowedHosts": ["testserver"], "status": status, "headers": headers, "body": body.decode("utf-8")}


class FakeRequest:
    def __init__(self, accept):
        self.META = {"HTTP_ACCEPT": accept}
        self.query_params = {}


ACCEPTS = [
    "*/*", "application/json", "application/json; indent=4", "application/json;indent=4", "Application/JSON; INDENT=4",
    "application/json; indent=0", "application/json; indent=1", "application/json; indent=8", "application/json; indent=9",
    "application/json; indent=100000000000000000000", "application/json; indent=-3", "application/json; indent=x",
    "application/json; indent=", "application/json; indent", "application/json; indent=2.0", "application/json; indent=+2",
    "application/json; indent=1_0", "application/json; indent=\u0663", "application/json; indent= 5 ", 'application/json; indent="5"',
    'application/json; indent="5;x"', "application/json; q=0; indent=2", "application/json; indent=2; indent=6",
    "*/*; indent=3", "*/*;indent=3", "application/*; indent=2", "*/json; indent=2", '*/*; indent="5;x"', "*/*; q=0.5; indent=2",
    "text/html; indent=4", "text/html; indent=4, */*", "application/json, */*; indent=4", "*/*; indent=4, application/json",
    "text/html, application/json; indent=4", "application/*; indent=5, */*; indent=2", "*/*; indent=2, application/*; indent=5",
    "application/json; indent=3, text/html", "application/json; charset=utf-8; indent=2", "application/json;;indent=2",
    "application/json; indent=2;", "application/json ; indent=2", "  application/json  ;  indent=7  ",
    'application/json; x="a;b"; indent=2', 'application/json; x="a;indent=5"', "application/json; indent*=utf-8''4",
    "text/html", "text/*; indent=2", "", " ", "application/json-seq; indent=2", "*; indent=2",
]


def negotiate(accept):
    renderer = JSONRenderer()
    try:
        _renderer, media_type = DefaultContentNegotiation().select_renderer(FakeRequest(accept), [renderer])
    except Exception:  # NotAcceptable
        return {"accept": accept, "acceptable": False, "indent": None}
    return {"accept": accept, "acceptable": True, "indent": renderer.get_indent(media_type, {})}


json.dump(
    {
        "drf": __import__("rest_framework").__version__,
        "django": django.get_version(),
        "python": sys.version.split()[0],
        "answers": ANSWERS,
        "routes": ROUTES,
        "accept": [negotiate(a) for a in ACCEPTS],
        "disallowedHost": disallowed_host(),
    },
    sys.stdout,
    ensure_ascii=False,
    indent=1,
)
sys.stdout.write("\n")
