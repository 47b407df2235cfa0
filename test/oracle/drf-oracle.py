#!/usr/bin/python3
"""The real DRF on PostgreSQL as a long-running oracle, for the differential tests.

    /usr/bin/python3 test/oracle/drf-oracle.py --check
        prints nothing and exits 0 when the oracle can run here, else one line saying why (exit 3)
    /usr/bin/python3 test/oracle/drf-oracle.py DATA.json MAX_LIMIT
        makes a private PostgreSQL cluster (pg_cluster.py), loads DATA (a JSON array of subjects)
        into the contract's searching view (drf_app.py, ``search=True``), prints one ready line
        ``{"ready": seconds}``, then answers one raw request a line on stdin,
        ``{"method": "GET", "target": "/api/subjekti/?search=x", "headers": {...}}`` (the target one
        character a byte), with one line on stdout:
        ``{"status": 200, "answerHeaders": {...}, "body": "...", "length": n}`` (no body for HEAD).
        At the end of stdin (or SIGTERM) the cluster is stopped and removed.
"""
import json
import os
import signal
import sys
import time

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)


def why_not():
    """None when every part is here, else what is missing (one line)."""
    missing = []
    for module, package in [("django", "python3-django"), ("rest_framework", "python3-djangorestframework"),
                            ("django_filters", "python3-django-filters"), ("psycopg2", "python3-psycopg2")]:
        try:
            __import__(module)
        except ImportError:
            missing.append(package)
    if missing:
        return f"{sys.executable} lacks {', '.join(missing)} (apt-get install {' '.join(missing)})"
    import pg_cluster

    return pg_cluster.available()


def main():
    if sys.argv[1:] == ["--check"]:
        reason = why_not()
        if reason is not None:
            print(reason)
            sys.exit(3)
        return
    data, max_limit = sys.argv[1], int(sys.argv[2])
    # SIGTERM ends like the end of stdin: the cluster is stopped and removed on the way out.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
    started = time.monotonic()
    import drf_app
    import pg_cluster

    with pg_cluster.cluster(sys.stderr) as host:
        app = drf_app.setup(data, max_limit, search=True, pg_host=host)
        out = sys.stdout
        out.write(json.dumps({"ready": round(time.monotonic() - started, 2)}) + "\n")
        out.flush()
        for line in sys.stdin:
            if not line.strip():
                continue
            request = json.loads(line)
            answer = app.answer("", request["method"], request["target"].encode("latin-1"), request.get("headers") or {})
            reply = {key: answer[key] for key in ("status", "answerHeaders", "body", "length")}
            out.write(json.dumps(reply, ensure_ascii=False) + "\n")
            out.flush()


if __name__ == "__main__":
    main()
