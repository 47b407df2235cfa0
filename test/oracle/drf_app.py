"""The DRF application the oracles answer from, and how a raw request reaches it.

A real Django REST Framework application of the usual shape: a ``ReadOnlyModelViewSet`` over a
model registered on a ``DefaultRouter``, ``LimitOffsetPagination`` (``max_limit`` as given), JSON
renderers only (one of them named ``api``: the service answers ``format=api`` with JSON), Django's
Common/Security/XFrame middleware, APPEND_SLASH, through Django's own WSGI handler, with WSGI
environs built the way a WSGI server (gunicorn) builds them from the raw request: the path
percent-decoded byte by byte into PATH_INFO, the raw query bytes as QUERY_STRING, the Host header
as sent. Needs Debian's python3-django, python3-djangorestframework and python3-django-filters
(under /usr/bin/python3); ``search`` needs python3-psycopg2 and a PostgreSQL cluster too
(pg_cluster.py).

Two views, one per process (Django is configured once):

- ``search=False``, the first recordings: SQLite in memory, django-filter's exact filters on
  ``oib`` and ``jedinstvena_oznaka``.
- ``search=True``, the contract's searching, filtering and ordering: PostgreSQL (ICU ``hr-HR``,
  ``unaccent`` through ``django.contrib.postgres``), the view below, ``razina`` a choice field.
"""
import io
import json
import sys
from urllib.parse import quote, unquote_to_bytes

HEADERS = ["content-type", "location", "allow", "vary"]


def setup(data, max_limit, search=False, pg_host=None, pg_database="postgres"):
    """Configures Django, loads the records of ``data`` (a JSON array) and returns the app's parts."""
    import django
    from django.conf import settings

    apps = ["django.contrib.contenttypes", "django.contrib.auth", "rest_framework", "django_filters"]
    if search:
        database = {"ENGINE": "django.db.backends.postgresql", "NAME": pg_database, "HOST": pg_host, "USER": "postgres"}
        apps.append("django.contrib.postgres")
    else:
        database = {"ENGINE": "django.db.backends.sqlite3", "NAME": ":memory:"}
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
        INSTALLED_APPS=apps,
        DATABASES={"default": database},
        REST_FRAMEWORK={
            "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
            "DEFAULT_AUTHENTICATION_CLASSES": [],
            "DEFAULT_PERMISSION_CLASSES": [],
            "UNAUTHENTICATED_USER": None,
            "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
        },
    )
    django.setup()

    from django.core.handlers.wsgi import WSGIHandler
    from django.db import connection, models
    from django.urls import include, path
    from django_filters.rest_framework import DjangoFilterBackend
    from rest_framework import routers, serializers, viewsets
    from rest_framework.filters import OrderingFilter, SearchFilter
    from rest_framework.metadata import SimpleMetadata
    from rest_framework.pagination import LimitOffsetPagination
    from rest_framework.renderers import JSONRenderer
    from rest_framework.routers import DefaultRouter

    class ApiRenderer(JSONRenderer):
        """The service answers `format=api` (and the `.api` suffix) with the same JSON as `json`."""

        format = "api"

    class Metadata(SimpleMetadata):
        """OPTIONS names each media type once, as the service's own OPTIONS answer does."""

        def determine_metadata(self, request, view):
            metadata = super().determine_metadata(request, view)
            metadata["renders"] = list(dict.fromkeys(metadata["renders"]))
            return metadata

    with open(data, encoding="utf-8") as f:
        records = sorted(json.load(f), key=lambda r: r["id"])

    choices = {"choices": [("lokalna", "lokalna"), ("nacionalna", "nacionalna")]} if search else {}

    class Subjekt(models.Model):
        id = models.IntegerField(primary_key=True)
        jedinstvena_oznaka = models.CharField(max_length=50, unique=True)
        naziv_subjekta = models.TextField()
        oib = models.CharField(max_length=11)
        razina = models.CharField(max_length=50, **choices)
        datum_postanka = models.DateField()
        status_subjekta = models.BooleanField()
        odobreno = models.BooleanField()
        institucija_grad = models.TextField(blank=True)
        institucija_email = models.TextField(blank=True)

        class Meta:
            app_label = "registar"
            ordering = ["id"]

    with connection.schema_editor() as editor:
        editor.create_model(Subjekt)
    Subjekt.objects.bulk_create(Subjekt(**record) for record in records)

    class SubjektSerializer(serializers.ModelSerializer):
        class Meta:
            model = Subjekt
            fields = list(records[0].keys())

    class Pagination(LimitOffsetPagination):
        default_limit = 20

    Pagination.max_limit = max_limit

    class StableOrderingFilter(OrderingFilter):
        """`OrderingFilter` with `id` appended when the ordering asked for has no `id` or `-id`: ties by ascending id."""

        def get_ordering(self, request, queryset, view):
            ordering = super().get_ordering(request, queryset, view)
            if ordering is not None and not any(term in ("id", "-id") for term in ordering):
                ordering = [*ordering, "id"]
            return ordering

    # No docstring: DRF's OPTIONS metadata carries the view's docstring as its description ("").
    class LegacyViewSet(viewsets.ReadOnlyModelViewSet):
        queryset = Subjekt.objects.all()
        serializer_class = SubjektSerializer
        pagination_class = Pagination
        filterset_fields = ["oib", "jedinstvena_oznaka"]
        renderer_classes = [JSONRenderer, ApiRenderer]
        metadata_class = Metadata

    class SubjektViewSet(viewsets.ReadOnlyModelViewSet):
        queryset = Subjekt.objects.all()
        serializer_class = SubjektSerializer
        pagination_class = Pagination
        renderer_classes = [JSONRenderer, ApiRenderer]
        metadata_class = Metadata
        filter_backends = [DjangoFilterBackend, SearchFilter, StableOrderingFilter]
        filterset_fields = {'oib': ['exact'], 'jedinstvena_oznaka': ['exact'], 'razina': ['exact'],
                            'institucija_grad': ['exact'], 'status_subjekta': ['exact'], 'odobreno': ['exact'],
                            'datum_postanka': ['exact', 'gte', 'lte']}
        search_fields = ['naziv_subjekta__unaccent', 'institucija_grad__unaccent']
        ordering_fields = ['id', 'jedinstvena_oznaka', 'naziv_subjekta', 'institucija_grad', 'datum_postanka']
        ordering = ['id']

    # The view classes keep their name: OPTIONS says "Subjekt List" / "Subjekt Instance".
    LegacyViewSet.__name__ = "SubjektViewSet"
    view = SubjektViewSet if search else LegacyViewSet

    # The router's root view is DRF's own, with the same two renderers.
    routers.APIRootView.renderer_classes = [JSONRenderer, ApiRenderer]
    routers.APIRootView.metadata_class = Metadata

    router = DefaultRouter()
    router.register("subjekti", view, basename="subjekt")
    global urlpatterns
    urlpatterns = [path("api/", include(router.urls))]

    return App(WSGIHandler(), Subjekt, view)


urlpatterns = []


class App:
    def __init__(self, wsgi, model, view):
        self.wsgi = wsgi
        self.model = model
        self.view = view

    def call(self, method, target, headers):
        """The raw request (``target`` bytes) through Django: (status, every header in order, body bytes)."""
        seen = {}

        def start_response(status, response_headers, exc_info=None):
            seen["status"] = int(status.split(" ", 1)[0])
            seen["headers"] = [[k, v] for k, v in response_headers]

        body = b"".join(self.wsgi(environ(method, target, headers), start_response))
        return seen["status"], seen["headers"], body

    def answer(self, name, method, target, headers=None, reencoded=False):
        """A golden answer: the status, the headers the contract names, the body (none for HEAD) and its length."""
        headers = {"Host": "testserver", **(headers or {})}
        status, response_headers, body = self.call(method, target, headers)
        lower = {k.lower(): v for k, v in response_headers}
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
            "status": status,
            "answerHeaders": {k: lower[k] for k in HEADERS if k in lower},
            "body": body.decode("utf-8"),
            "length": length,
        }
        if reencoded:
            # What a host that re-encodes the target before our code runs is answered.
            result["reencoded"] = self.answer(name, method, as_url(target), headers)
        return result


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
        "wsgi.input": io.BytesIO(b""),
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
