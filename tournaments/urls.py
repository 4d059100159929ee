"""API routes under /api/: organiser and public resources, deals, the device endpoint."""

from django.urls import include, path
from rest_framework.routers import DefaultRouter, SimpleRouter

from tournaments.access import onboarding as api_onboarding
from tournaments.access.auth_views import ApiTokenViewSet, TokenView
from tournaments.deals import api_matches
from tournaments.deals.api import DealDetailView, DealListView
from tournaments.deals.api_analysis import DealAnalysisView, DealLineView
from tournaments.deals.api_boards import BoardTravellerView, RoundBoardsView, RoundBoardView
from tournaments.draw import api as draw_api
from tournaments.events import api, api_constraints
from tournaments.history import api as history_api
from tournaments.leagues import api as league_api
from tournaments.pairs import api as api_pairs
from tournaments.ratings import api as rating_api
from tournaments.results import api as results_api

router = DefaultRouter()
router.register("clubs", api_onboarding.ClubViewSet, basename="club")
router.register("players", api.PlayerViewSet, basename="player")
router.register("tournaments", draw_api.TournamentViewSet, basename="tournament")
router.register("registrations", api.RegistrationViewSet, basename="registration")
router.register("rounds", draw_api.RoundViewSet, basename="round")
router.register("tables", api.TableViewSet, basename="table")
router.register("matches", api_matches.MatchViewSet, basename="match")
router.register("seasons", results_api.SeasonViewSet, basename="season")
router.register("auth/tokens", ApiTokenViewSet, basename="api-tokens")

urlpatterns = [
    path("auth/token/", TokenView.as_view(), name="api-token"),
    path("device/", api_matches.DeviceTableView.as_view(), name="device-table"),
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
    path("auth/signup/", api_onboarding.SignUpView.as_view(), name="api-signup"),
    path(
        "invitations/accept/",
        api_onboarding.InvitationAcceptView.as_view(),
        name="invitation-accept",
    ),
    path("tournaments/<int:pk>/pairs/", api_pairs.TournamentPairsView.as_view(), name="pairs"),
    path(
        "tournaments/<int:pk>/pairs/draw/",
        api_pairs.TournamentPairDrawView.as_view(),
        name="pairs-draw",
    ),
    path("pairs/<int:pk>/", api_pairs.PairDetailView.as_view(), name="pair-detail"),
    path("tournaments/<int:pk>/finals/", api_pairs.FinalsView.as_view(), name="finals"),
    path(
        "tournaments/<int:pk>/finals/next/", api_pairs.FinalsNextView.as_view(), name="finals-next"
    ),
    path("tournaments/<int:pk>/bracket/", api_pairs.BracketView.as_view(), name="bracket"),
    path("rounds/<int:round_id>/boards/", RoundBoardsView.as_view(), name="round-boards"),
    path(
        "rounds/<int:round_id>/boards/<int:board>/",
        RoundBoardView.as_view(),
        name="round-board",
    ),
    path(
        "rounds/<int:round_id>/boards/<int:board>/traveller/",
        BoardTravellerView.as_view(),
        name="board-traveller",
    ),
    path(
        "clubs/<int:pk>/history-imports/preview/",
        history_api.HistoryPreviewView.as_view(),
        name="history-preview",
    ),
    path(
        "clubs/<int:pk>/history-imports/",
        history_api.HistoryImportListView.as_view(),
        name="history-imports",
    ),
    path(
        "clubs/<int:pk>/history-imports/<int:import_id>/",
        history_api.HistoryImportDetailView.as_view(),
        name="history-import-detail",
    ),
    path("", include(router.urls)),
]

# The league of clubs (tournaments/leagues/api.py); a router of its own, appended.
league_router = SimpleRouter()
league_router.register("leagues", league_api.LeagueViewSet, basename="league")
league_router.register("divisions", league_api.DivisionViewSet, basename="division")
league_router.register("league-teams", league_api.LeagueTeamViewSet, basename="league-team")
league_router.register("match-days", league_api.MatchDayViewSet, basename="match-day")
league_router.register(
    "postponements", league_api.PostponementViewSet, basename="match-day-postponement"
)
urlpatterns += [path("", include(league_router.urls))]

# Ratings (tournaments/ratings/api.py), appended.
urlpatterns += [
    path("clubs/<int:pk>/ratings/", rating_api.ClubRatingsView.as_view(), name="club-ratings"),
    path(
        "players/<int:pk>/rating-history/",
        rating_api.PlayerRatingHistoryView.as_view(),
        name="player-rating-history",
    ),
]

# The par analysis of a deal (tournaments/deals/api_analysis.py), appended.
urlpatterns += [
    path(
        "matches/<int:match_id>/deals/<int:number>/analysis/",
        DealAnalysisView.as_view(),
        name="deal-analysis",
    ),
    path(
        "matches/<int:match_id>/deals/<int:number>/line/",
        DealLineView.as_view(),
        name="deal-line",
    ),
]
