"""A private PostgreSQL 15 cluster for the DRF oracle: made in a temporary directory, listening on a
Unix socket there only, removed when the ``with`` ends (also on an error, and when this process is
killed: the server is its child and gets SIGTERM when it dies).

The cluster is the one the contract names: UTF-8, an ICU Croatian default collation
(``--locale-provider=icu --icu-locale=hr-HR``), and the ``unaccent`` extension in ``postgres`` and
``template1`` (so in every database made after it). As root, initdb and the server run as the ``postgres`` user.

    with cluster() as host:  # the socket directory, Django's HOST
        ...
"""
import contextlib
import ctypes
import os
import pwd
import shutil
import signal
import subprocess
import tempfile
import time

BIN = os.environ.get("SUBJEKTI_PG_BIN", "/usr/lib/postgresql/15/bin")
PR_SET_PDEATHSIG = 1


def available():
    """None when a cluster can be made here, else why not (one line)."""
    if not os.path.exists(os.path.join(BIN, "initdb")):
        return f"no PostgreSQL at {BIN} (Debian's postgresql package)"
    if os.geteuid() == 0:
        try:
            pwd.getpwnam("postgres")
        except KeyError:
            return "running as root and there is no postgres user to run the server as"
    return None


def _as_owner(owner):
    """A preexec_fn: become the cluster's owner (as root) and die with the parent."""

    def run():
        ctypes.CDLL("libc.so.6", use_errno=True).prctl(PR_SET_PDEATHSIG, signal.SIGTERM)
        if owner is not None:
            os.setgid(owner.pw_gid)
            os.initgroups(owner.pw_name, owner.pw_gid)
            os.setuid(owner.pw_uid)

    return run


@contextlib.contextmanager
def cluster(log=None):
    """Yields the socket directory of a fresh cluster; ``log`` (a file) gets the timings."""
    started = time.monotonic()
    owner = pwd.getpwnam("postgres") if os.geteuid() == 0 else None
    # /tmp rather than TMPDIR: the postgres user must reach the directory, and a Unix socket's
    # path is limited to 107 bytes.
    root = tempfile.mkdtemp(prefix="subjekti-pg-", dir="/tmp")
    server = None
    try:
        data = os.path.join(root, "data")
        if owner is not None:
            os.chown(root, owner.pw_uid, owner.pw_gid)
        env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8"}
        subprocess.run(
            [os.path.join(BIN, "initdb"), "-D", data, "-U", "postgres", "--auth=trust", "--no-sync", "--encoding=UTF8",
             "--locale=C.UTF-8", "--locale-provider=icu", "--icu-locale=hr-HR"],
            check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, preexec_fn=_as_owner(owner), env=env, cwd=root,
        )
        initialised = time.monotonic()
        server = subprocess.Popen(
            [os.path.join(BIN, "postgres"), "-D", data, "-k", root, "-c", "listen_addresses=", "-c", "fsync=off",
             "-c", "synchronous_commit=off", "-c", "full_page_writes=off"],
            stdout=subprocess.DEVNULL, stderr=open(os.path.join(root, "server.log"), "wb"),
            preexec_fn=_as_owner(owner), env=env, cwd=root,
        )
        _wait_ready(root, server)
        for database in ["template1", "postgres"]:
            subprocess.run(
                [os.path.join(BIN, "psql"), "-h", root, "-U", "postgres", "-d", database, "-q", "-v", "ON_ERROR_STOP=1",
                 "-c", "CREATE EXTENSION unaccent"],
                check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, env=env,
            )
        if log is not None:
            log.write(f"PostgreSQL cluster: initdb {initialised - started:.2f} s, ready {time.monotonic() - started:.2f} s\n")
        yield root
    finally:
        if server is not None and server.poll() is None:
            server.send_signal(signal.SIGINT)  # fast shutdown: clients are disconnected
            try:
                server.wait(20)
            except subprocess.TimeoutExpired:
                server.kill()
                server.wait()
        shutil.rmtree(root, ignore_errors=True)


def _wait_ready(root, server):
    socket = os.path.join(root, ".s.PGSQL.5432")
    for _ in range(600):
        if server.poll() is not None:
            with open(os.path.join(root, "server.log"), encoding="utf-8", errors="replace") as f:
                raise RuntimeError(f"postgres exited with {server.returncode}:\n{f.read()}")
        if os.path.exists(socket):
            probe = subprocess.run([os.path.join(BIN, "pg_isready"), "-q", "-h", root, "-U", "postgres"])
            if probe.returncode == 0:
                return
        time.sleep(0.05)
    raise RuntimeError("postgres did not accept connections in 30 s")


if __name__ == "__main__":
    import sys

    with cluster(sys.stderr) as host:
        out = subprocess.run(
            [os.path.join(BIN, "psql"), "-h", host, "-U", "postgres", "-d", "template1", "-At", "-c",
             "SELECT datcollate, daticulocale, unaccent('Đakovo Škola'), upper('ßﬁ') FROM pg_database WHERE datname='template1'"],
            check=True, capture_output=True, text=True,
        )
        print(out.stdout.strip())
