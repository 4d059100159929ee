"""Web pages at the site root: public pages, the table tablet and the organiser console."""

from django.urls import path

from tournaments.access.auth_views import LockoutLoginView, TokenRevokingLogoutView

from . import (
    api_tokens,
    clubs,
    console,
    console_matches,
    duplicate,
    hand_records,
    history,
    language,
    league,
    league_console,
    pairs,
    paper,
    player_link,
    privacy,
    public,
    publishing,
    ratings,
    tablet,
)

urlpatterns = [
    # public
    path("", public.home, name="home"),
    path("favicon.ico", public.favicon, name="favicon"),
    path("tournaments/<int:pk>/", public.tournament_detail, name="tournament"),
    path("tournaments/<int:pk>/rounds/<int:number>/", public.round_seating, name="seating"),
    path("tournaments/<int:pk>/standings/", public.standings, name="standings"),
    path("tournaments/<int:pk>/standings/table/", public.standings_table, name="standings-table"),
    path("tournaments/<int:pk>/projector/", public.projector, name="projector"),
    path("clubs/<slug:slug>/", public.club_detail, name="club"),
    path("clubs/<slug:slug>/feed.atom", publishing.ClubFeed(), name="club-feed"),
    path("embed/clubs/<slug:slug>/", publishing.embed_club, name="embed-club"),
    path(
        "embed/clubs/<slug:slug>/divisions/<int:division_id>/",
        publishing.embed_division,
        name="embed-division",
    ),
    path("clubs/<slug:slug>/share.png", publishing.og_club, name="club-og"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/share.png",
        publishing.og_season,
        name="season-og",
    ),
    path("tournaments/<int:pk>/standings/share.png", publishing.og_standings, name="standings-og"),
    path("clubs/<slug:slug>/print/<str:sheet>/", publishing.print_club, name="club-print"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/print/",
        publishing.print_season,
        name="season-print",
    ),
    path(
        "embed/clubs/<slug:slug>/seasons/<int:season_id>/",
        publishing.embed_season,
        name="embed-season",
    ),
    path(
        "embed/tournaments/<int:pk>/standings/", publishing.embed_standings, name="embed-standings"
    ),
    path("clubs/<slug:slug>/seasons/<int:season_id>/", public.season_table, name="season"),
    path("players/<int:pk>/", public.player_detail, name="player"),
    path("clubs/<slug:slug>/ratings/", ratings.club_ratings, name="club-ratings"),
    path("lang/<str:code>/", language.switch_language, name="switch-language"),
    # table tablet (the service worker first: its scope is /t/)
    path("t/sw.js", tablet.service_worker, name="tablet-service-worker"),
    path("t/<str:code>/", tablet.tablet, name="tablet"),
    path("t/<str:code>/state/", tablet.tablet_state, name="tablet-state"),
    # accounts
    path("accounts/login/", LockoutLoginView.as_view(), name="login"),
    path(
        "accounts/logout/",
        TokenRevokingLogoutView.as_view(next_page="home"),
        name="logout",
    ),
    path("accounts/signup/", clubs.signup, name="signup"),
    path(
        "clubs/<slug:slug>/seasons/<int:season_id>/table.csv",
        clubs.season_csv,
        name="season-csv",
    ),
    # onboarding, pairs and finals in the console (before the generic command routes)
    path("console/clubs/new/", clubs.club_new, name="console-club-new"),
    path("console/clubs/<int:pk>/", clubs.club_console, name="console-club"),
    path("console/clubs/<int:pk>/invite/", clubs.club_invite, name="console-club-invite"),
    path("console/clubs/<int:pk>/settings/", clubs.club_settings, name="console-club-settings"),
    path("console/clubs/<int:pk>/players/", clubs.club_players, name="console-club-players"),
    path("console/clubs/<int:pk>/history/", history.history, name="console-club-history"),
    path("history-sample.<str:kind>", history.history_sample, name="history-sample"),
    path(
        "console/clubs/<int:pk>/history/confirm/",
        history.history_confirm,
        name="console-club-history-confirm",
    ),
    path(
        "console/clubs/<int:pk>/history/<int:import_id>/remove/",
        history.history_remove,
        name="console-club-history-remove",
    ),
    path(
        "console/clubs/<int:pk>/seasons/<int:season_pk>/",
        clubs.season_edit,
        name="console-club-season",
    ),
    path(
        "console/clubs/<int:pk>/players/<int:player_pk>/",
        clubs.club_player,
        name="console-club-player",
    ),
    path("console/invitations/<str:token>/", clubs.invitation, name="console-invitation"),
    path("console/tournaments/<int:pk>/pairs/", pairs.pairs_console, name="console-pairs"),
    path(
        "console/tournaments/<int:pk>/bracket/print/",
        paper.bracket_sheet,
        name="console-bracket-print",
    ),
    path(
        "console/tournaments/<int:pk>/pairs/<str:command>/",
        pairs.pairs_command,
        name="console-pairs-command",
    ),
    path("console/pairs/<int:pk>/<str:command>/", pairs.pair_command, name="console-pair"),
    # the league of clubs in the console (tournaments/web/league_console.py)
    path("console/leagues/", league_console.league_list, name="console-leagues"),
    path("console/leagues/<int:pk>/", league_console.league_console, name="console-league"),
    path(
        "console/leagues/<int:pk>/<str:command>/",
        league_console.league_command,
        name="console-league-command",
    ),
    path("console/league-teams/<int:pk>/", league_console.team_console, name="console-league-team"),
    path(
        "console/league-teams/<int:pk>/remove/",
        league_console.team_remove,
        name="console-league-team-remove",
    ),
    path(
        "console/match-days/<int:pk>/", league_console.match_day_console, name="console-league-day"
    ),
    path(
        "console/match-days/<int:pk>/deals/",
        league_console.match_day_deals,
        name="console-league-day-deals",
    ),
    path(
        "console/match-days/<int:pk>/<str:command>/",
        league_console.match_day_command,
        name="console-league-day-command",
    ),
    # organiser console
    path("console/", console.tournament_list, name="console"),
    path(
        "console/api-tokens/<int:pk>/revoke/",
        api_tokens.revoke_token,
        name="console-api-token-revoke",
    ),
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
    path("console/rounds/<int:pk>/score-sheets/", paper.score_sheets, name="console-score-sheets"),
    path("console/rounds/<int:pk>/boards/", duplicate.print_boards, name="console-boards-print"),
    path(
        "console/rounds/<int:pk>/<str:command>/",
        console.round_command,
        name="console-round-command",
    ),
    path("console/matches/<int:pk>/", console_matches.match_console, name="console-match"),
    path(
        "console/matches/<int:pk>/deals/<int:number>/",
        console_matches.deal_page,
        name="console-deal",
    ),
]

# The league of clubs (tournaments/web/league.py), appended.
urlpatterns += [
    path("leagues/", league.league_list, name="leagues"),
    path("leagues/<slug:slug>/", league.league_detail, name="league"),
    path("leagues/<slug:slug>/calendar.ics", league.league_calendar, name="league-calendar"),
    path("leagues/<slug:slug>/fixtures.csv", league.fixtures_csv, name="league-fixtures-csv"),
    path("leagues/<slug:slug>/ranking.csv", league.ranking_csv, name="league-ranking-csv"),
    path(
        "leagues/<slug:slug>/divisions/<int:pk>/table.csv",
        league.table_csv,
        name="league-table-csv",
    ),
    path("leagues/<slug:slug>/teams/<int:pk>/", league.team_detail, name="league-team"),
    path(
        "leagues/<slug:slug>/teams/<int:pk>/calendar.ics",
        league.team_calendar,
        name="league-team-calendar",
    ),
]

# Hand records (tournaments/web/hand_records.py), appended.
urlpatterns += [
    path(
        "matches/<int:match_id>/deals/<int:number>/hand/",
        hand_records.deal_hand_record,
        name="hand-record",
    ),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/hand-records/",
        hand_records.round_hand_records,
        name="round-hand-records",
    ),
    path(
        "t/<str:code>/deals/<int:number>/",
        hand_records.tablet_hand_record,
        name="tablet-hand-record",
    ),
]

# Players' personal links (tournaments/web/player_link.py), appended.
urlpatterns += [
    path("p/<str:token>/", player_link.player_page, name="player-link"),
    path("p/<str:token>/check-in/", player_link.player_check_in, name="player-link-check-in"),
]

# Duplicate tournaments (tournaments/web/duplicate.py), appended.
urlpatterns += [
    path("tournaments/<int:pk>/boards/", duplicate.boards_index, name="duplicate-boards"),
    path(
        "tournaments/<int:pk>/rounds/<int:number>/boards/<int:board>/",
        duplicate.board_traveller,
        name="duplicate-traveller",
    ),
    path(
        "tournaments/<int:pk>/travellers.csv",
        duplicate.traveller_csv,
        name="duplicate-traveller-csv",
    ),
]

# Privacy: the member's name and data, the club's imprint and privacy notice
# (tournaments/web/privacy.py), appended.
urlpatterns += [
    path("p/<str:token>/name/", privacy.player_name_style, name="player-link-name"),
    path("p/<str:token>/data.json", privacy.player_data_json, name="player-link-data-json"),
    path("p/<str:token>/data.csv", privacy.player_data_csv, name="player-link-data-csv"),
    path("clubs/<slug:slug>/imprint/", privacy.imprint, name="club-imprint"),
    path("clubs/<slug:slug>/privacy/", privacy.privacy_page, name="club-privacy"),
    path("console/clubs/<int:pk>/imprint/", privacy.club_imprint, name="console-club-imprint"),
    path(
        "console/clubs/<int:pk>/players/<int:player_pk>/anonymise/",
        privacy.anonymise_player,
        name="console-club-player-anonymise",
    ),
]
