"""Root URLs: admin, /healthz, the REST API under /api/, its OpenAPI schema and docs, and
the web pages."""

from django.contrib import admin
from django.urls import include, path
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from games.api import device_deal_entry
from klammern_site.health import healthz
from tournaments.api import public_standings

urlpatterns = [
    path("admin/", admin.site.urls),
    path("healthz", healthz, name="healthz"),
    # anonymous JSON readers of the public standings without DRF's dispatch; anything else
    # there is handed to the routed DRF view (which the OpenAPI schema describes)
    path("api/tournaments/<int:pk>/standings/", public_standings),
    # a table device's deal entries and corrections likewise (anything else: the DRF view)
    path("api/matches/<int:match_id>/deals/<int:number>/", device_deal_entry),
    path("api/", include("tournaments.urls")),
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="api-docs"),
    path("i18n/", include("django.conf.urls.i18n")),
    path("", include("tournaments.web.urls")),
]
