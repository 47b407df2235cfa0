#!/usr/bin/env python3
"""Writes test/golden/<case>/ pages the way Django REST Framework renders them: an oracle for the
build's golden tests, independent of the TypeScript that builds the site. Dev-only (python3).

It reads the fixture's sources (JSON array, NDJSON, CSV with ; or , and an optional BOM), orders
the subjects by id, and for each form of `format` and each offset renders DRF's
LimitOffsetPagination envelope with DRF's own link functions (rest_framework/utils/urls.py) and
JSONRenderer's settings (compact separators, ensure_ascii=False, U+2028/U+2029 escaped).

    python3 test/oracle/golden-pages.py test/fixtures/small-site test/golden/small-site http://testserver 20
"""
import csv, glob, json, os, sys
from urllib import parse

FIELDS = ["id", "jedinstvena_oznaka", "naziv_subjekta", "oib", "razina", "datum_postanka",
          "status_subjekta", "odobreno", "institucija_grad", "institucija_email"]


def replace_query_param(url, key, val):  # rest_framework/utils/urls.py
    (scheme, netloc, path, query, fragment) = parse.urlsplit(str(url))
    query_dict = parse.parse_qs(query, keep_blank_values=True)
    query_dict[str(key)] = [str(val)]
    query = parse.urlencode(sorted(query_dict.items()), doseq=True)
    return parse.urlunsplit((scheme, netloc, path, query, fragment))


def remove_query_param(url, key):  # rest_framework/utils/urls.py
    (scheme, netloc, path, query, fragment) = parse.urlsplit(str(url))
    query_dict = parse.parse_qs(query, keep_blank_values=True)
    query_dict.pop(key, None)
    query = parse.urlencode(sorted(query_dict.items()), doseq=True)
    return parse.urlunsplit((scheme, netloc, path, query, fragment))


def page(subjects, url, limit, offset):  # LimitOffsetPagination.get_paginated_response
    count = len(subjects)
    nxt = None
    if offset + limit < count:
        nxt = replace_query_param(replace_query_param(url, "limit", limit), "offset", offset + limit)
    prev = None
    if offset > 0:
        u = replace_query_param(url, "limit", limit)
        prev = remove_query_param(u, "offset") if offset - limit <= 0 else replace_query_param(u, "offset", offset - limit)
    body = {"count": count, "next": nxt, "previous": prev,
            "results": [{k: s[k] for k in FIELDS} for s in subjects[offset:offset + limit]]}
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")  # JSONRenderer.render


def read(source_dir):
    subjects = []
    for path in sorted(glob.glob(os.path.join(source_dir, "**", "*"), recursive=True)):
        if path.endswith(".json"):
            subjects += json.load(open(path, encoding="utf-8"))
        elif path.endswith(".ndjson"):
            subjects += [json.loads(line) for line in open(path, encoding="utf-8") if line.strip()]
        elif path.endswith(".csv"):
            text = open(path, encoding="utf-8-sig", newline="").read()
            delimiter = ";" if text.split("\n", 1)[0].count(";") > text.split("\n", 1)[0].count(",") else ","
            for row in csv.DictReader(text.splitlines(keepends=True), delimiter=delimiter):
                row["id"] = int(row["id"])
                for flag in ("status_subjekta", "odobreno"):
                    row[flag] = row[flag] == "true"
                subjects.append(row)
    return sorted(subjects, key=lambda s: s["id"])


def main(source_dir, out_dir, base_url, limit):
    subjects = read(source_dir)
    for form, query in (("plain", ""), ("api", "?format=api")):
        os.makedirs(os.path.join(out_dir, form, str(limit)), exist_ok=True)
        for offset in range(0, len(subjects), limit):
            url = base_url + "/api/subjekti/" + query
            with open(os.path.join(out_dir, form, str(limit), f"{offset // limit}.json"), "w", encoding="utf-8", newline="") as f:
                f.write(page(subjects, url, limit, offset))


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]))
