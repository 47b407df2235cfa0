#!/usr/bin/python3
"""What the DRF oracle on PostgreSQL does underneath, for docs/search-oracle-notes.md.

Dev-only. Prints one JSON document: the SQL Django runs for a search, a filter and an ordering
(as ``str(queryset.query)`` and as executed), PostgreSQL's ``upper()`` and ``unaccent()`` of every
code point where either is not one character out, and the sample's names and towns in the
cluster's ICU hr-HR order (for comparing with a collator of one's own). Regenerate with

    /usr/bin/python3 test/oracle/search-facts.py data/subjekti.json > /tmp/search-facts.json
"""
import json
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import drf_app  # noqa: E402
import pg_cluster  # noqa: E402


def main():
    data = sys.argv[1]
    with pg_cluster.cluster(sys.stderr) as host:
        app = drf_app.setup(data, 1000, search=True, pg_host=host)
        from django.db import connection
        from django.test.utils import CaptureQueriesContext
        from rest_framework.request import Request
        from rest_framework.test import APIRequestFactory

        def queryset(params):
            request = Request(APIRequestFactory().get("/api/subjekti/", params))
            view = app.view()
            view.request = request
            view.format_kwarg = None
            view.kwargs = {}
            return str(view.filter_queryset(view.get_queryset()).query)

        def executed(target):
            with CaptureQueriesContext(connection) as queries:
                app.call("GET", target, {"Host": "testserver"})
            return [q["sql"] for q in queries.captured_queries]

        cursor = connection.cursor()
        # Every code point but the surrogates; upper() and unaccent() where either is not one character.
        cursor.execute(
            "SELECT i, upper(chr(i)), unaccent(chr(i)), upper(unaccent(chr(i))) FROM generate_series(1, 1114111) i"
            " WHERE i NOT BETWEEN 55296 AND 57343"
        )
        upper, unaccent, both = {}, {}, {}
        for i, up, un, upun in cursor.fetchall():
            c = chr(i)
            if up != c:
                upper[i] = up
            if un != c:
                unaccent[i] = un
            if upun != c:
                both[i] = upun
        cursor.execute("SELECT naziv_subjekta, id FROM registar_subjekt ORDER BY naziv_subjekta, id")
        names = [row[1] for row in cursor.fetchall()]
        cursor.execute("SELECT DISTINCT institucija_grad FROM registar_subjekt ORDER BY institucija_grad")
        towns = [row[0] for row in cursor.fetchall()]
        tricky = ["c", "C", "č", "Č", "ć", "Ć", "d", "D", "dz", "dž", "Dž", "DŽ", "đ", "Đ", "e", "l", "lj", "Lj", "LJ", "m", "n", "nj",
                  "o", "s", "š", "z", "ž", "a", "A", "á", "ä", "1", "10", "2", " ", "a b", "ab", "a-b", "a.b", "\"a\"", "„a”", "'a",
                  "(a)", "", "\u00a0a", "ǆ", "ǅ", "Ǆ", "ß", "ss", "ı", "i", "I", "İ", "æ", "ae", "œ", "oe", "🌊", "a\u2028b", "dža", "dza",
                  "dzz", "da", "dđ", "đa", "lja", "lza", "lzz", "nja", "nza"]
        cursor.execute("SELECT t FROM unnest(%s::text[]) t ORDER BY t", [tricky])
        tricky_sorted = [row[0] for row in cursor.fetchall()]
        cursor.execute("SELECT 'a' = 'a' COLLATE \"default\", (SELECT collisdeterministic FROM pg_collation WHERE collname = 'hr-HR-x-icu')")
        facts = {
            "sql": {
                "search two terms": queryset({"search": "dakovo lado"}),
                "filters": queryset({"razina": "lokalna", "status_subjekta": "true", "datum_postanka__gte": "2000-01-01",
                                     "institucija_grad": "Zagreb"}),
                "ordering by name": queryset({"ordering": "naziv_subjekta"}),
                "ordering by -town, date": queryset({"ordering": "-institucija_grad,datum_postanka"}),
                "ordering -id": queryset({"ordering": "-id"}),
                "executed: search, ordering, page": executed(b"/api/subjekti/?search=%C4%91akovo&ordering=naziv_subjekta&limit=2&offset=1"),
                "executed: a search for 50%_x": executed(b"/api/subjekti/?search=50%25_x"),
                "executed: detail with a search": executed(b"/api/subjekti/51/?search=zzz"),
            },
            "upper": {f"U+{i:04X}": v for i, v in upper.items() if len(v) != 1},
            "unaccentNotOneChar": {f"U+{i:04X}": v for i, v in unaccent.items() if len(v) != 1},
            "upperUnaccentNotOneChar": {f"U+{i:04X}": v for i, v in both.items() if len(v) != 1},
            "unaccentCount": len(unaccent),
            "upperAll": {str(i): v for i, v in upper.items()},
            "unaccentAll": {str(i): v for i, v in unaccent.items()},
            "namesOrder": names,
            "townsOrder": towns,
            "tricky": tricky,
            "trickySorted": tricky_sorted,
        }
        json.dump(facts, sys.stdout, ensure_ascii=False)


if __name__ == "__main__":
    main()
