"""Root URLs: admin, /healthz, /readyz, /metrics, the REST API under /api/, its OpenAPI
schema and docs, and the web pages."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerSplitView

from klammern_site.health import healthz, readyz
from klammern_site.monitoring import metrics_view

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    path("readyz", readyz, name="readyz"),
    path("metrics", metrics_view, name="metrics"),
    path("api/", include("tournaments.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    # the page and its start-up script apart, so that the page needs no inline script (CSP)
    path("api/docs/", SpectacularSwaggerSplitView.as_view(url_name="schema"), name="api-docs"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tournaments.web.urls")),
]

# Under /api/ the answers are JSON with a ``code`` (klammern_site/exception_handler.py).
handler400 = "klammern_site.exception_handler.bad_request"
handler404 = "klammern_site.exception_handler.page_not_found"
handler500 = "klammern_site.exception_handler.server_error"
