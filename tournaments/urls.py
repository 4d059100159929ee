"""API routes under /api/: organiser and public resources, deals, the device endpoint."""

from django.urls import include, path
from rest_framework.authtoken.views import obtain_auth_token
from rest_framework.routers import DefaultRouter

from games.api import DealDetailView, DealListView

from . import api, api_constraints

router = DefaultRouter()
router.register("clubs", api.ClubViewSet, basename="club")
router.register("players", api.PlayerViewSet, basename="player")
router.register("tournaments", api.TournamentViewSet, basename="tournament")
router.register("registrations", api.RegistrationViewSet, basename="registration")
router.register("rounds", api.RoundViewSet, basename="round")
router.register("tables", api.TableViewSet, basename="table")
router.register("matches", api.MatchViewSet, basename="match")

urlpatterns = [
    path("auth/token/", obtain_auth_token, name="api-token"),
    path("device/", api.DeviceTableView.as_view(), name="device-table"),
    path("matches/<int:match_id>/deals/", DealListView.as_view(), name="deal-list"),
    path(
        "matches/<int:match_id>/deals/<int:number>/", DealDetailView.as_view(), name="deal-detail"
    ),
    path(
        "registrations/<int:pk>/fixed-table/",
        api_constraints.RegistrationFixedTableView.as_view(),
        name="registration-fixed-table",
    ),
    path(
        "tournaments/<int:pk>/forbidden-pairings/",
        api_constraints.TournamentForbiddenPairingsView.as_view(),
        name="tournament-forbidden-pairings",
    ),
    path(
        "forbidden-pairings/<int:pk>/",
        api_constraints.ForbiddenPairingDetailView.as_view(),
        name="forbidden-pairing-detail",
    ),
    path("", include(router.urls)),
]
