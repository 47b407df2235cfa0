#!/usr/bin/python3
"""Golden answers from the real Django REST Framework, for the request table and the core.

Dev-only tool. Tests never run Python; they read the committed output. Needs Debian's
python3-django and python3-djangorestframework (apt-get install them; they run under
/usr/bin/python3). Regenerate with

    /usr/bin/python3 scripts/drf-golden.py > test/core/golden/drf-answers.json

and review the diff. It serves the host tests' fixture list (test/fixtures/hosts-site/data) from a
real DRF view (`ListAPIView`-style, `LimitOffsetPagination` with `max_limit` 25, JSONRenderer
only, Django's Common/Security/XFrame middleware, APPEND_SLASH) through Django's own WSGI handler,
with WSGI environs built the way a WSGI server (gunicorn) builds them from the raw request: the
path percent-decoded byte by byte into PATH_INFO, the raw query bytes as QUERY_STRING, the Host
header as sent. It records:

- ``answers``: for each raw request, the status, the headers the contract names and the body;
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
from urllib.parse import quote, unquote_to_bytes

import django
from django.conf import settings

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = os.path.join(HERE, "..", "test", "fixtures", "hosts-site", "data", "subjekti.json")

settings.configure(
    DEBUG=False,
    ALLOWED_HOSTS=["*"],
    ROOT_URLCONF=__name__,
    SECRET_KEY="golden",
    APPEND_SLASH=True,
    MIDDLEWARE=[
        "django.middleware.security.SecurityMiddleware",
        "django.middleware.common.CommonMiddleware",
        "django.middleware.clickjacking.XFrameOptionsMiddleware",
    ],
    INSTALLED_APPS=["django.contrib.contenttypes", "django.contrib.auth", "rest_framework"],
    REST_FRAMEWORK={
        "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
        "DEFAULT_AUTHENTICATION_CLASSES": [],
        "DEFAULT_PERMISSION_CLASSES": [],
        "UNAUTHENTICATED_USER": None,
    },
)
django.setup()

from django.core.handlers.wsgi import WSGIHandler  # noqa: E402
from django.urls import path  # noqa: E402
from rest_framework import generics  # noqa: E402
from rest_framework.negotiation import DefaultContentNegotiation  # noqa: E402
from rest_framework.pagination import LimitOffsetPagination  # noqa: E402
from rest_framework.renderers import JSONRenderer  # noqa: E402
from rest_framework.response import Response  # noqa: E402

with open(DATA, encoding="utf-8") as f:
    RECORDS = sorted(json.load(f), key=lambda r: r["id"])


class Pagination(LimitOffsetPagination):
    default_limit = 20
    max_limit = 25


class SubjektList(generics.GenericAPIView):
    pagination_class = Pagination

    def get(self, request):
        page = self.paginate_queryset(RECORDS)
        return self.get_paginated_response(page)

    def get_queryset(self):
        return RECORDS


urlpatterns = [path("api/subjekti/", SubjektList.as_view())]

APP = WSGIHandler()
HEADERS = ["content-type", "location", "allow", "vary"]


def environ(method, target, headers):
    """What a WSGI server puts in the environ for this raw request (bytes as latin-1 strings)."""
    raw_path, _, raw_query = target.partition(b"?")
    env = {
        "REQUEST_METHOD": method,
        "SCRIPT_NAME": "",
        "PATH_INFO": unquote_to_bytes(raw_path).decode("latin-1"),
        "QUERY_STRING": raw_query.decode("latin-1"),
        "SERVER_NAME": "testserver",
        "SERVER_PORT": "80",
        "SERVER_PROTOCOL": "HTTP/1.1",
        "wsgi.url_scheme": "http",
        "wsgi.input": __import__("io").BytesIO(b""),
        "wsgi.errors": sys.stderr,
        "wsgi.multithread": False,
        "wsgi.multiprocess": False,
        "wsgi.run_once": False,
        "wsgi.version": (1, 0),
    }
    for name, value in headers.items():
        # Sent as UTF-8; a WSGI server hands the bytes over as latin-1 characters.
        env["HTTP_" + name.upper().replace("-", "_")] = value.encode("utf-8").decode("latin-1")
    return env


def as_url(target):
    """The target as a URL parser passes it on: bytes read as UTF-8 (U+FFFD where they are not), non-ASCII percent-encoded."""
    return quote(target.decode("utf-8", "replace"), safe="".join(chr(c) for c in range(0x21, 0x7F))).encode()


def answer(name, method, target, headers=None, reencoded=False):
    headers = {"Host": "testserver", **(headers or {})}
    seen = {}

    def start_response(status, response_headers, exc_info=None):
        seen["status"] = int(status.split(" ", 1)[0])
        seen["headers"] = {k.lower(): v for k, v in response_headers}

    body = b"".join(APP(environ(method, target, headers), start_response))
    # Django renders HEAD like GET; the server drops the body and keeps its length.
    length = len(body)
    if method == "HEAD":
        body = b""
    result = {
        "name": name,
        "method": method,
        # The raw target, one character per byte.
        "target": target.decode("latin-1"),
        "headers": headers,
        "status": seen["status"],
        "answerHeaders": {k: seen["headers"][k] for k in HEADERS if k in seen["headers"]},
        "body": body.decode("utf-8"),
        "length": length,
    }
    if reencoded:
        # What a host that re-encodes the target before our code runs is answered.
        result["reencoded"] = answer(name, method, as_url(target), headers)
    return result


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


def disallowed_host():
    """Django's answer when ALLOWED_HOSTS does not name the Host: every header, in order, and the body."""
    from django.test.utils import override_settings

    seen = {}

    def start_response(status, response_headers, exc_info=None):
        seen["status"] = int(status.split(" ", 1)[0])
        seen["headers"] = [[k, v] for k, v in response_headers]

    with override_settings(ALLOWED_HOSTS=["testserver"]):
        body = b"".join(APP(environ("GET", P, {"Host": "evil.example"}), start_response))
    return {"host": "evil.example", "allowedHosts": ["testserver"], "status": seen["status"], "headers": seen["headers"], "body": body.decode("utf-8")}


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
        "accept": [negotiate(a) for a in ACCEPTS],
        "disallowedHost": disallowed_host(),
    },
    sys.stdout,
    ensure_ascii=False,
    indent=1,
)
sys.stdout.write("\n")
