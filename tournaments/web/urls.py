"""Web pages at the site root: public pages, the table tablet and the organiser console."""

from django.contrib.auth import views as auth_views
from django.urls import path

from . import console, language, public, tablet

urlpatterns = [
    # public
    path("", public.home, name="home"),
    path("tournaments/<int:pk>/", public.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/rounds/<int:number>/", public.round_seating, name="seating"),
    path("tournaments/<int:pk>/standings/", public.standings, name="standings"),
    path("tournaments/<int:pk>/standings/table/", public.standings_table, name="standings-table"),
    path("tournaments/<int:pk>/projector/", public.projector, name="projector"),
    path("clubs/<slug:slug>/", public.club_detail, name="club"),
    path("clubs/<slug:slug>/seasons/<int:season_id>/", public.season_table, name="season"),
    path("players/<int:pk>/", public.player_detail, name="player"),
    path("lang/<str:code>/", language.switch_language, name="switch-language"),
    # table tablet (the service worker first: its scope is /t/)
    path("t/sw.js", tablet.service_worker, name="tablet-service-worker"),
    path("t/<str:code>/", tablet.tablet, name="tablet"),
    path("t/<str:code>/state/", tablet.tablet_state, name="tablet-state"),
    # accounts
    path("accounts/login/", auth_views.LoginView.as_view(), name="login"),
    path("accounts/logout/", auth_views.LogoutView.as_view(next_page="home"), name="logout"),
    # organiser console
    path("console/", console.tournament_list, name="console"),
    path("console/tournaments/<int:pk>/", console.tournament_console, name="console-tournament"),
    path(
        "console/tournaments/<int:pk>/register/", console.register_player, name="console-register"
    ),
    path(
        "console/tournaments/<int:pk>/players/qr/",
        console.player_qr_cards,
        name="console-player-cards",
    ),
    path(
        "console/tournaments/<int:pk>/results.csv", console.results_csv, name="console-results-csv"
    ),
    path(
        "console/tournaments/<int:pk>/standings.csv",
        console.standings_csv,
        name="console-standings-csv",
    ),
    path(
        "console/tournaments/<int:pk>/forbidden-pairings/",
        console.forbidden_pairing_add,
        name="console-forbidden-pairing-add",
    ),
    path(
        "console/forbidden-pairings/<int:pk>/remove/",
        console.forbidden_pairing_remove,
        name="console-forbidden-pairing-remove",
    ),
    path(
        "console/registrations/<int:pk>/fixed-table/",
        console.registration_fixed_table,
        name="console-fixed-table",
    ),
    path(
        "console/tournaments/<int:pk>/<str:command>/",
        console.tournament_command,
        name="console-tournament-command",
    ),
    path(
        "console/registrations/<int:pk>/<str:action>/",
        console.registration_action,
        name="console-registration",
    ),
    path("console/check-in/<str:token>/", console.check_in_scan, name="console-check-in-scan"),
    path("console/rounds/<int:pk>/", console.round_console, name="console-round"),
    path(
        "console/rounds/<int:pk>/progress/",
        console.round_progress_partial,
        name="console-round-progress",
    ),
    path("console/rounds/<int:pk>/table-cards/", console.table_cards, name="console-table-cards"),
    path("console/rounds/<int:pk>/seating/", console.seating_print, name="console-seating-print"),
    path(
        "console/rounds/<int:pk>/<str:command>/",
        console.round_command,
        name="console-round-command",
    ),
    path("console/matches/<int:pk>/", console.match_console, name="console-match"),
    path(
        "console/matches/<int:pk>/deals/<int:number>/", console.deal_correction, name="console-deal"
    ),
]
