#!/usr/bin/python3
"""Golden answers for searching, filtering and ordering the list, from the real DRF on PostgreSQL.

Dev-only tool. Tests read the committed output. Needs Debian's python3-django,
python3-djangorestframework, python3-django-filters, python3-psycopg2 and postgresql (15, with ICU
and unaccent); run as root (the server then runs as the postgres user) or as any user. Regenerate with

    /usr/bin/python3 test/oracle/drf-search-golden.py > test/core/golden/drf-search-answers.json

and review the diff. It makes a private PostgreSQL cluster (pg_cluster.py: ICU ``hr-HR``,
``unaccent``), and answers from the contract's searching view (drf_app.py, ``search=True``):
``DjangoFilterBackend``, ``SearchFilter`` over ``naziv_subjekta__unaccent`` and
``institucija_grad__unaccent``, and ``OrderingFilter`` with ``id`` appended. Two sections, each
a list of raw requests with the status, the headers the contract names and the body (the shape of
drf-answers.json's ``answers``):

- ``fixture``: the host tests' fixture list (test/fixtures/hosts-site/data, 53 subjects with
  č ć đ š ž, Đakovo, a backslash, U+2028) with ``max_limit`` 25, run by the request table on every host;
- ``sample``: the 5,758-subject sample (data/subjekti.json) with ``max_limit`` 1000, for the
  contract's examples that need its names (``dakovo`` 27 times, ``lado`` in "Mladost").

Each section runs in its own process (Django is configured once a process), on its own database.
"""
import json
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
DATA = {
    "fixture": (os.path.join(HERE, "..", "fixtures", "hosts-site", "data", "subjekti.json"), 25),
    "sample": (os.path.join(HERE, "..", "..", "data", "subjekti.json"), 1000),
}
P = b"/api/subjekti/"
INDENT2 = {"Accept": "application/json; indent=2"}

# Every code point Python's str.split() takes for whitespace (Unicode 14), and three it does not.
SPACES = ["\t", "\n", "\x0b", "\x0c", "\r", "\x1c", "\x1d", "\x1e", "\x1f", " ", "\x85", "\xa0", "\u1680",
          *[chr(c) for c in range(0x2000, 0x200B)], "\u2028", "\u2029", "\u202f", "\u205f", "\u3000"]
NOT_SPACES = ["\u200b", "\u180e", "\ufeff"]


def q(text):
    """A query value percent-encoded as UTF-8 (every byte but ASCII letters and digits)."""
    return "".join(c if c.isascii() and c.isalnum() else "".join(f"%{b:02X}" for b in c.encode()) for c in text).encode()


def case(name, target, method="GET", headers=None, reencoded=False):
    return (name, method, target, headers or {}, reencoded)


def fixture_cases():
    c = []
    # The contract's table, on the fixture.
    c += [
        case("table: search=dakovo&limit=1 -> Đakovo's (unaccent maps đ to d)", P + b"?search=dakovo&limit=1"),
        case("table: search=lado,zagreb -> every term in the name or the town", P + b"?search=lado,zagreb"),
        case("table: search=%25 -> a literal percent sign, nothing", P + b"?search=%25"),
        case("table: search= (empty) -> the whole list, search= kept", P + b"?search="),
        case("table: razina=regionalna -> 400", P + b"?razina=regionalna"),
        case("table: datum_postanka__gte=2020-02-30 -> 400", P + b"?datum_postanka__gte=2020-02-30"),
        case("table: status_subjekta=da -> ignored", P + b"?status_subjekta=da"),
        case("table: ordering=naziv_subjekta&limit=2&offset=600 -> past the end", P + b"?ordering=naziv_subjekta&limit=2&offset=600"),
        case("table: ordering=nepostojece -> by id", P + b"?ordering=nepostojece"),
        case("table: detail 51 with search=zzz -> 404", P + b"51/?search=zzz"),
        case("table: detail 51 with razina=x -> 400", P + b"51/?razina=x"),
    ]
    # Searching: unaccent, case, substrings, both fields.
    for value in ["dakovo", "DAKOVO", "Đakovo", "đakovo", "ĐAKOVO", "Dakovo", "akov", "sume", "ŠUME", "šume", "Šume", "cakovec",
                  "čakovec", "ćčđšž", "ccdsz", "CCDSZ", "ĆČĐŠŽ", "ad", "a", "brod", "zminj", "ŽMINJ", "sunce", "„sunce”", "SUNCE”",
                  "d.o.o.", "d.o.o", "<b>", "&amp;", '"navodnici"', "🌊", "jadran", "odlomak", "zagreb", "ZaGrEb", "vrtić", "vrtic",
                  "zzz", "c\u030cakovec", "C\u030cAKOVEC", "z\u030cminj", "ﬁ", "ß", "æ", "ǆ", "ǅ", "dž", "lj", "ǉ", "ı", "İ",
                  "knjiz\u030cnica", "dAKOVO", "\u00d0akovo", "splitska", "osi", "ured za", "grad zagreb",
                  # unaccent maps these to % _ \ before Django escapes the pattern: literal, as the ASCII ones.
                  "％", "＿", "＼", "∖", "﹪", "½", "vrti＿"]:
        c.append(case(f"search={value!r}", P + b"?search=" + q(value)))
    c += [
        case("search: the percent sign inside a word", P + b"?search=a%25b"),
        case("search: _ is literal", P + b"?search=_"),
        case("search: d_o is not d.o", P + b"?search=d_o"),
        case("search: a backslash is literal (id 28 holds one)", P + b"?search=%5C"),
        case("search: two backslashes", P + b"?search=%5C%5C"),
        case("search: backslash and percent", P + b"?search=%5C%25"),
        case("search: a NUL alone -> no search", P + b"?search=%00"),
        case("search: a NUL inside a word is removed", P + b"?search=vrt%00ic"),
        case("search: a NUL between words is removed (joins them)", P + b"?search=grad%00zagreb"),
        case("search: several terms, spaces", P + b"?search=vrtic+osijek"),
        case("search: several terms, %20", P + b"?search=vrtic%20sunce%20osijek"),
        case("search: several terms, commas", P + b"?search=vrtic,osijek"),
        case("search: several terms, comma and space", P + b"?search=vrtic,+osijek"),
        case("search: double comma", P + b"?search=vrtic,,osijek"),
        case("search: only commas -> no search", P + b"?search=,,"),
        case("search: only spaces -> no search", P + b"?search=+++"),
        case("search: spaces around", P + b"?search=++zagreb++"),
        case("search: a term found nowhere among found ones -> none", P + b"?search=zagreb+zzz"),
        case("search: the same term twice", P + b"?search=zagreb+zagreb"),
        case("search: a term in the name and one in the town", P + b"?search=knjiznica+cakovec"),
        case("search: two words across the U+2028 of id 28", P + b"?search=udruga+novi"),
        case("search: the encoded comma", P + b"?search=vrtic%2Cosijek"),
        case("search: repeated -> the last", P + b"?search=zagreb&search=split"),
        case("search: repeated, the last empty -> no search", P + b"?search=zagreb&search="),
        case("search: repeated, the first empty", P + b"?search=&search=split"),
        case("search: Search (case) -> not the parameter", P + b"?Search=zagreb&limit=2"),
        case("search: limit and offset over the matches", P + b"?search=grad&limit=2&offset=2"),
        case("search: offset past the matches", P + b"?search=grad&offset=100"),
        case("search: offset past the matches, limit", P + b"?search=grad&limit=3&offset=30"),
        case("search: limit above max_limit", P + b"?search=a&limit=1000"),
        case("search: the second page of 25", P + b"?search=a&limit=25&offset=25"),
        case("search: bad limit and offset", P + b"?search=grad&limit=x&offset=-1"),
        case("search: HEAD", P + b"?search=dakovo", "HEAD"),
        case("search: OPTIONS -> the metadata", P + b"?search=dakovo", "OPTIONS"),
        case("search: POST -> 405", P + b"?search=dakovo", "POST"),
        case("search: format=api", P + b"?search=dakovo&format=api"),
        case("search: format=json", P + b"?format=json&search=dakovo"),
        case("search: format=xml -> 404", P + b"?search=dakovo&format=xml"),
        case("search: indent 2", P + b"?search=dakovo", headers=INDENT2),
        case("search: no match, indent 2", P + b"?search=zzz", headers=INDENT2),
        case("search: on .json", b"/api/subjekti.json?search=dakovo"),
        case("search: on .api", b"/api/subjekti.api?search=zagreb&limit=1"),
        case("search: without the slash -> 301", b"/api/subjekti?search=dakovo"),
        case("search: the root ignores it", b"/api/?search=dakovo"),
        case("search: with other parameters kept in the links", P + b"?zeta=1&search=a&limit=2&Alpha=x"),
        case("search: raw UTF-8", P + "?search=čakovec&limit=2".encode(), reencoded=True),
        case("search: raw Latin-1 (the whole query is Latin-1)", P + b"?search=\xe8akovec", reencoded=True),
        case("search: percent-encoded Latin-1 -> not UTF-8, U+FFFD", P + b"?search=%E8akovec"),
    ]
    for space in SPACES + NOT_SPACES:
        name = "a space" if space in SPACES else "not a space"
        c.append(case(f"search: U+{ord(space):04X} between two terms ({name} to str.split)", P + b"?search=" + q(f"vrtic{space}osijek")))
    # Filters: each value valid, empty, invalid.
    OIB = b"19960308249"
    c += [
        case("filter: oib", P + b"?oib=" + OIB),
        case("filter: oib and search", P + b"?oib=" + OIB + b"&search=vodovod"),
        case("filter: oib and a search that excludes it", P + b"?oib=" + OIB + b"&search=zagreb"),
        case("filter: jedinstvena_oznaka", P + b"?jedinstvena_oznaka=0007"),
        case("filter: jedinstvena_oznaka, NUL -> 400", P + b"?jedinstvena_oznaka=%00"),
    ]
    for value in ["lokalna", "nacionalna", "", "+", "LOKALNA", "Lokalna", "lokalna+", "+lokalna", "regionalna", "x", "%00",
                  "lokalna%00", "%C4%8D"]:
        c.append(case(f"filter: razina={value}", P + b"?razina=" + value.encode()))
    c += [
        case("filter: razina twice -> the last", P + b"?razina=x&razina=nacionalna"),
        case("filter: razina twice, the last bad", P + b"?razina=nacionalna&razina=x"),
        case("filter: razina and limit", P + b"?razina=nacionalna&limit=3&offset=3"),
    ]
    for value in ["Zagreb", "zagreb", "ZAGREB", "Đakovo", "Dakovo", "%C4%90akovo", "Slavonski+Brod", "Slavonski", "+Zagreb+",
                  "", "%00", "%C4%8Cakovec", "C%CC%8Cakovec"]:
        c.append(case(f"filter: institucija_grad={value}", P + b"?institucija_grad=" + value.encode()))
    for field in ["status_subjekta", "odobreno"]:
        for value in ["true", "false", "True", "False", "TRUE", "FALSE", "tRuE", "1", "0", "2", "3", "yes", "no", "on", "off",
                      "unknown", "null", "None", "t", "f", "da", "ne", "", "+true", "true+", "%00", "01", "-1", "1.0"]:
            c.append(case(f"filter: {field}={value}", P + f"?{field}={value}".encode()))
    c += [
        case("filter: status_subjekta twice -> the last", P + b"?status_subjekta=false&status_subjekta=true"),
        case("filter: status_subjekta twice, the last ignored", P + b"?status_subjekta=false&status_subjekta=x"),
        case("filter: both flags false", P + b"?status_subjekta=false&odobreno=false"),
    ]
    # Dates: id 14 was founded 1994-10-16, id 92 1950-02-09.
    for value in ["1994-10-16", "10/16/1994", "10/16/94", "Oct+16+1994", "oct+16+1994", "OCT+16+1994", "Oct+16,+1994",
                  "16+Oct+1994", "16+Oct,+1994", "October+16+1994", "October+16,+1994", "16+October+1994",
                  "16+October,+1994", "1950-2-9", "2/9/1950", "2/9/50", "+1994-10-16+", "1994-10-16%C2%A0", "", "+",
                  "16.10.1994.", "16.10.1994", "1994/10/16", "19941016", "1994-10-16T00:00", "1994-10-16+00:00",
                  "2020-02-30", "2021-02-29", "2020-02-29", "1994-13-01", "0000-01-01", "0001-01-01", "9999-12-31",
                  "10000-01-01", "94-10-16", "x", "%00", "1994-10-16%00", "%D9%A1%D9%A9%D9%A9%D9%A4-10-16",
                  "Okt+16+1994", "Sept+16+1994", "Sep+16+1994", "16+Oct+94", "10/16/50", "10/16/68", "10/16/69"]:
        c.append(case(f"filter: datum_postanka={value}", P + b"?datum_postanka=" + value.encode()))
    for suffix, value in [("gte", "2015-01-01"), ("lte", "1955-12-31"), ("gte", "2022-03-01"), ("lte", "1950-02-09"),
                          ("gte", "x"), ("lte", "2020-02-30"), ("gte", ""), ("gt", "2015-01-01"), ("lt", "1955-12-31"),
                          ("range", "1950-01-01,1960-01-01"), ("year", "1994")]:
        c.append(case(f"filter: datum_postanka__{suffix}={value}", P + f"?datum_postanka__{suffix}={value}".encode()))
    c += [
        case("filter: a date range", P + b"?datum_postanka__gte=1990-01-01&datum_postanka__lte=1999-12-31"),
        case("filter: an empty range (gte after lte)", P + b"?datum_postanka__gte=2000-01-01&datum_postanka__lte=1999-12-31"),
        case("filter: several invalid -> the 400's keys in the filterset's order",
             P + b"?datum_postanka__lte=x&odobreno=x&datum_postanka__gte=y&razina=x&datum_postanka=z&oib=%00&institucija_grad=%00&jedinstvena_oznaka=%00"),
        case("filter: several invalid, the other query order", P + b"?oib=%00&datum_postanka=z&razina=x&datum_postanka__gte=y&datum_postanka__lte=x"),
        case("filter: several invalid, indent 2", P + b"?razina=x&datum_postanka=z", headers=INDENT2),
        case("filter: invalid, HEAD -> 400, no body", P + b"?razina=x", "HEAD"),
        case("filter: invalid, OPTIONS -> the metadata", P + b"?razina=x", "OPTIONS"),
        case("filter: invalid, POST -> 405", P + b"?razina=x", "POST"),
        case("filter: invalid, format=api", P + b"?razina=x&format=api"),
        case("filter: invalid, format=xml -> 404", P + b"?razina=x&format=xml"),
        case("filter: invalid, Accept text/html -> 406", P + b"?razina=x", headers={"Accept": "text/html"}),
        case("filter: invalid with a search", P + b"?search=zagreb&razina=x"),
        case("filter: invalid, on .json", b"/api/subjekti.json?razina=x"),
        case("filter: unknown names are ignored", P + b"?naziv_subjekta=Grad+Zagreb&id=5&institucija_email=x&limit=2"),
        case("filter: combined with search and ordering",
             P + b"?razina=lokalna&status_subjekta=true&search=grad&ordering=-datum_postanka&limit=3"),
        case("filter: institucija_grad and search on the town", P + b"?institucija_grad=Split&search=opcina"),
        case("filter: every filter at once",
             P + b"?oib=19960308249&jedinstvena_oznaka=0003&razina=lokalna&institucija_grad=Rijeka&status_subjekta=true&odobreno=false"
             + b"&datum_postanka=2003-03-18&datum_postanka__gte=2003-03-18&datum_postanka__lte=2003-03-18"),
    ]
    # Ordering.
    for field in ["id", "jedinstvena_oznaka", "naziv_subjekta", "institucija_grad", "datum_postanka"]:
        for sign in ["", "-"]:
            for offset in [0, 25, 50]:
                c.append(case(f"ordering: {sign}{field}, offset {offset}", P + f"?ordering={sign}{field}&limit=25&offset={offset}".encode()))
    for value in ["institucija_grad,-datum_postanka", "-institucija_grad,naziv_subjekta", "naziv_subjekta,-id", "-naziv_subjekta,id",
                  "naziv_subjekta,naziv_subjekta", "naziv_subjekta,-naziv_subjekta", "-naziv_subjekta,naziv_subjekta",
                  "razina", "oib", "status_subjekta", "nepostojece", "Naziv_subjekta", "NAZIV_SUBJEKTA", "--naziv_subjekta",
                  "+naziv_subjekta", "%2Bid", "+naziv_subjekta+", "naziv_subjekta+,+-id", "naziv_subjekta,,id", ",", "",
                  "%3F", "-%3F", "naziv_subjekta.x", "nepostojece,naziv_subjekta", "naziv_subjekta,nepostojece,-id",
                  "institucija_grad,%00", "naziv_subjekta%00", "id,naziv_subjekta", "-id,naziv_subjekta", "datum_postanka,id",
                  "institucija_grad%09", "%C2%A0naziv_subjekta", "pk", "-pk"]:
        c.append(case(f"ordering={value}", P + b"?ordering=" + value.encode() + b"&limit=25"))
    c += [
        case("ordering: repeated -> the last", P + b"?ordering=naziv_subjekta&ordering=-id&limit=5"),
        case("ordering: repeated, the last empty -> the default", P + b"?ordering=-id&ordering=&limit=5"),
        case("ordering: Ordering (case) -> not the parameter", P + b"?Ordering=-id&limit=5"),
        case("ordering: with a search", P + b"?search=grad&ordering=-naziv_subjekta&limit=3&offset=2"),
        case("ordering: with a filter", P + b"?razina=nacionalna&ordering=institucija_grad"),
        case("ordering: past the end", P + b"?ordering=-naziv_subjekta&offset=60"),
        case("ordering: at the last page", P + b"?ordering=-naziv_subjekta&limit=7&offset=49"),
        case("ordering: HEAD", P + b"?ordering=-id", "HEAD"),
        case("ordering: indent 2", P + b"?ordering=-id&limit=2", headers=INDENT2),
        case("ordering: format=api", P + b"?ordering=-id&limit=2&format=api"),
        case("ordering: on .json", b"/api/subjekti.json?ordering=-naziv_subjekta&limit=3"),
    ]
    # The detail route filters its queryset too.
    c += [
        case("detail: a search that finds it", P + b"14/?search=dakovo"),
        case("detail: a search that does not -> 404", P + b"14/?search=zagreb"),
        case("detail: an empty search", P + b"14/?search="),
        case("detail: a search of two terms", P + b"14/?search=vodovod,dakovo"),
        case("detail: razina that matches", P + b"51/?razina=nacionalna"),
        case("detail: razina that does not -> 404", P + b"51/?razina=lokalna"),
        case("detail: razina=x -> 400", P + b"51/?razina=x"),
        case("detail: razina=x on a missing id -> 400 first", P + b"999999/?razina=x"),
        case("detail: razina=x, HEAD", P + b"51/?razina=x", "HEAD"),
        case("detail: razina=x, OPTIONS -> the metadata", P + b"51/?razina=x", "OPTIONS"),
        case("detail: razina=x, indent 2", P + b"51/?razina=x", headers=INDENT2),
        case("detail: a date that matches", P + b"14/?datum_postanka=1994-10-16"),
        case("detail: a date that does not -> 404", P + b"14/?datum_postanka__gte=2000-01-01"),
        case("detail: a bad date -> 400", P + b"14/?datum_postanka=x"),
        case("detail: a boolean that does not match -> 404", P + b"8/?odobreno=true"),
        case("detail: a boolean ignored", P + b"8/?odobreno=x"),
        case("detail: ordering means nothing", P + b"14/?ordering=-naziv_subjekta"),
        case("detail: search=zzz, HEAD", P + b"51/?search=zzz", "HEAD"),
        case("detail: search=zzz, indent 2", P + b"51/?search=zzz", headers=INDENT2),
        case("detail: search=zzz, format=api", P + b"51/?search=zzz&format=api"),
        case("detail: search=zzz, format=xml -> 404", P + b"51/?search=zzz&format=xml"),
        case("detail: .json with a search", P + b"14.json?search=dakovo"),
        case("detail: .json with a search that does not find it", P + b"14.json?search=zagreb"),
        case("detail: .api with a search", P + b"14.api?search=DAKOVO"),
        case("detail: .json with razina=x", P + b"51.json?razina=x"),
        case("detail: without the slash -> 301", P + b"14?search=zagreb"),
    ]
    return c


def sample_cases():
    c = [
        case("table: search=dakovo&limit=1 -> count 27", P + b"?search=dakovo&limit=1"),
        case("table: search=lado,zagreb -> count 2", P + b"?search=lado,zagreb"),
        case("table: search=%25 -> count 0", P + b"?search=%25"),
        case("table: search= -> the whole list", P + b"?search="),
        case("table: razina=regionalna -> 400", P + b"?razina=regionalna"),
        case("table: datum_postanka__gte=2020-02-30 -> 400", P + b"?datum_postanka__gte=2020-02-30"),
        case("table: status_subjekta=da -> the whole list", P + b"?status_subjekta=da"),
        case("table: ordering=naziv_subjekta&limit=2&offset=600", P + b"?ordering=naziv_subjekta&limit=2&offset=600"),
        case("table: ordering=nepostojece -> by id", P + b"?ordering=nepostojece"),
        case("table: /api/subjekti/51/?search=zzz -> 404", P + b"51/?search=zzz"),
        case("table: /api/subjekti/51/?razina=x -> 400", P + b"51/?razina=x"),
    ]
    for value in ["dakovo", "DAKOVO", "Đakovo", "lado", "LADO", "skola", "ŠKOLA", "škola", "osnovna skola zagreb", "mladost",
                  "vrtic", "dz", "dž", "lj", "nj", "ss", "fi", "ﬁ", "o", "a", "e", "-", "–", "'", '"', ".", "(", "\xa0", "1.",
                  "d.o.o", "zupanija", "županija", "opcina", "grad", "sveuciliste u zagrebu", "c\u030c", "oe", "ö", "á", "à",
                  "ǆ", "Ǆ", "ß", "％", "＿", "½", "„", "ı"]:
        c.append(case(f"search={value!r}", P + b"?search=" + q(value) + b"&limit=3"))
    for value in ["naziv_subjekta", "-naziv_subjekta", "institucija_grad", "-institucija_grad", "jedinstvena_oznaka",
                  "-jedinstvena_oznaka", "datum_postanka", "-datum_postanka", "-id"]:
        for offset in [0, 1000, 5740]:
            c.append(case(f"ordering={value}, offset {offset}", P + f"?ordering={value}&limit=20&offset={offset}".encode()))
    # Croatian order at the letters that differ from code-point order: c č ć d dž đ, l lj, n nj, s š, z ž.
    for value, offset in [("naziv_subjekta", 900), ("naziv_subjekta", 1400), ("naziv_subjekta", 1500), ("institucija_grad", 600),
                          ("institucija_grad", 700), ("institucija_grad", 1000), ("institucija_grad", 1500)]:
        c.append(case(f"ordering={value}, 100 at {offset}", P + f"?ordering={value}&limit=100&offset={offset}".encode()))
    c += [
        case("search and ordering by name", P + b"?search=skola&ordering=naziv_subjekta&limit=50&offset=400"),
        case("search, filter and ordering", P + b"?search=vrtic&razina=lokalna&ordering=-institucija_grad&limit=10&offset=30"),
        case("filter: institucija_grad=Zagreb", P + b"?institucija_grad=Zagreb&limit=5&offset=770"),
        case("filter: razina=nacionalna", P + b"?razina=nacionalna&limit=5&offset=1148"),
        case("filter: a date range", P + b"?datum_postanka__gte=2020-01-01&datum_postanka__lte=2020-12-31&ordering=datum_postanka"),
        case("filter: odobreno=false", P + b"?odobreno=false&limit=3&offset=686"),
    ]
    return c


def section(name, host):
    import psycopg2

    connection = psycopg2.connect(host=host, user="postgres", dbname="postgres")
    connection.autocommit = True
    connection.cursor().execute(f"CREATE DATABASE {name}")
    connection.close()

    import drf_app

    data, max_limit = DATA[name]
    app = drf_app.setup(data, max_limit, search=True, pg_host=host, pg_database=name)
    cases = fixture_cases() if name == "fixture" else sample_cases()
    names = [c[0] for c in cases]
    duplicates = {n for n in names if names.count(n) > 1}
    if duplicates:
        raise SystemExit(f"duplicate case names: {sorted(duplicates)}")
    json.dump({name: [app.answer(*c) for c in cases]}, sys.stdout, ensure_ascii=False)


def versions(host):
    import django
    import django_filters
    import psycopg2
    import rest_framework

    connection = psycopg2.connect(host=host, user="postgres", dbname="postgres")
    cursor = connection.cursor()
    cursor.execute("SHOW server_version")
    postgres = cursor.fetchone()[0]
    cursor.execute("SELECT collversion FROM pg_collation WHERE collname = 'hr-HR-x-icu'")
    icu = cursor.fetchone()[0]
    connection.close()
    return {"drf": rest_framework.__version__, "django": django.get_version(), "djangoFilter": django_filters.__version__,
            "postgres": postgres, "icuCollationVersion": icu, "python": sys.version.split()[0]}


def main():
    if sys.argv[1:2] == ["--section"]:
        section(sys.argv[2], sys.argv[3])
        return
    sys.path.insert(0, HERE)
    import pg_cluster

    with pg_cluster.cluster(sys.stderr) as host:
        out = versions(host)
        for name in DATA:
            run = subprocess.run([sys.executable, os.path.abspath(__file__), "--section", name, host], check=True, stdout=subprocess.PIPE)
            out.update(json.loads(run.stdout))
    json.dump(out, sys.stdout, ensure_ascii=False, indent=1)
    sys.stdout.write("\n")


if __name__ == "__main__":
    main()
