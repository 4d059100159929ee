"""Django admin for clubs and tournaments. Organisers (staff users in Club.organisers)
see and change only their own clubs' objects; superusers see everything."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

import tournaments.deals.admin  # noqa: F401
from tournaments.admin_base import ClubScopedAdmin, DeletesWithHistory, ScopedInline
from tournaments.clubs.models import (
    ApiToken,
    Club,
    ClubMembership,
    OrganiserInvitation,
    Player,
    Season,
)
from tournaments.events.models import (
    Bye,
    DeviceCredential,
    ForbiddenPairing,
    Match,
    MatchConfirmation,
    Registration,
    Round,
    Seat,
    Table,
    Team,
    TeamMember,
    Tournament,
)
from tournaments.leagues.models import Division, League, LeagueTeam, MatchDay, MatchDayConfirmation
from tournaments.results.models import StandingsSnapshot


class MembershipInline(ScopedInline):
    model = ClubMembership
    autocomplete_fields = ["player"]


@admin.register(Club)
class ClubAdmin(DeletesWithHistory, ClubScopedAdmin):
    club_path = ""
    list_display = ["name", "slug", "boss_window", "created"]
    search_fields = ["name", "slug"]
    prepopulated_fields = {"slug": ["name"]}
    filter_horizontal = ["organisers"]
    inlines = [MembershipInline]

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = admin.ModelAdmin.get_queryset(self, request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(organisers=request.user)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return request.user.is_superuser


@admin.register(Player)
class PlayerAdmin(ClubScopedAdmin):
    club_path = "clubs"
    list_display = ["name", "household", "user", "created"]
    search_fields = ["name", "household"]
    list_filter = ["clubs"]
    inlines = [MembershipInline]


@admin.register(ClubMembership)
class ClubMembershipAdmin(ClubScopedAdmin):
    list_display = ["player", "club", "kind", "created"]
    list_filter = ["kind", "club"]
    search_fields = ["player__name"]
    autocomplete_fields = ["player"]


class RegistrationInline(ScopedInline):
    model = Registration
    autocomplete_fields = ["player"]
    fields = ["player", "team", "status", "late", "fixed_table"]


class TeamInline(ScopedInline):
    model = Team


@admin.register(Tournament)
class TournamentAdmin(DeletesWithHistory, ClubScopedAdmin):
    list_display = ["name", "club", "format", "status", "is_public", "rules_locked", "created"]
    list_filter = ["status", "format", "is_public", "club", "season"]
    search_fields = ["name", "slug", "club__name"]
    prepopulated_fields = {"slug": ["name"]}
    readonly_fields = ["rules_locked", "locked_at", "results_version", "created"]
    inlines = [TeamInline, RegistrationInline]

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> list[str]:
        fields = list(super().get_readonly_fields(request, obj))
        if obj is not None and obj.rules_locked:
            fields += Tournament.RULE_FIELDS
        return fields


@admin.register(Registration)
class RegistrationAdmin(ClubScopedAdmin):
    club_path = "tournament__club"
    list_display = ["player", "tournament", "status", "late", "checked_in_at"]
    list_filter = ["status", "late", "tournament"]
    search_fields = ["player__name", "tournament__name"]
    autocomplete_fields = ["player"]


class TeamMemberInline(ScopedInline):
    model = TeamMember
    autocomplete_fields = ["player"]


@admin.register(Team)
class TeamAdmin(ClubScopedAdmin):
    club_path = "tournament__club"
    list_display = ["name", "tournament"]
    list_filter = ["tournament"]
    search_fields = ["name"]
    inlines = [TeamMemberInline]


@admin.register(TeamMember)
class TeamMemberAdmin(ClubScopedAdmin):
    club_path = "team__tournament__club"
    list_display = ["player", "team"]
    search_fields = ["player__name", "team__name"]


@admin.register(ForbiddenPairing)
class ForbiddenPairingAdmin(ClubScopedAdmin):
    club_path = "tournament__club"
    list_display = ["tournament", "player_a", "player_b"]
    autocomplete_fields = ["player_a", "player_b"]


class TableInline(ScopedInline):
    model = Table
    show_change_link = True


class ByeInline(ScopedInline):
    model = Bye


@admin.register(Round)
class RoundAdmin(ClubScopedAdmin):
    club_path = "tournament__club"
    list_display = ["tournament", "number", "status", "published_at", "closed_at"]
    list_filter = ["status", "tournament"]
    search_fields = ["tournament__name"]
    inlines = [TableInline, ByeInline]


class SeatInline(ScopedInline):
    model = Seat
    fields = ["position", "player", "round"]


class DeviceCredentialInline(ScopedInline):
    model = DeviceCredential
    fields = ["created", "expires_at", "revoked_at"]
    readonly_fields = ["created", "expires_at"]

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False  # codes are issued through the API, which shows them once


@admin.register(Table)
class TableAdmin(ClubScopedAdmin):
    club_path = "round__tournament__club"
    list_display = ["__str__", "round", "number"]
    list_select_related = ["round__tournament"]
    list_filter = ["round__tournament"]
    inlines = [SeatInline, DeviceCredentialInline]


@admin.register(Seat)
class SeatAdmin(ClubScopedAdmin):
    club_path = "round__tournament__club"
    list_display = ["table", "position", "player"]
    list_select_related = ["table__round__tournament", "player"]
    search_fields = ["player__name"]


@admin.register(Bye)
class ByeAdmin(ClubScopedAdmin):
    club_path = "round__tournament__club"
    list_display = ["round", "player", "points"]
    list_select_related = ["round__tournament", "player"]


class ConfirmationInline(ScopedInline):
    model = MatchConfirmation
    readonly_fields = ["confirmed_at"]


@admin.register(Match)
class MatchAdmin(ClubScopedAdmin):
    club_path = "round__tournament__club"
    list_display = ["__str__", "mode", "deals_planned", "target", "status", "finished_at"]
    list_select_related = ["table__round__tournament"]
    list_filter = ["status", "mode", "round__tournament"]
    inlines = [ConfirmationInline]


@admin.register(MatchConfirmation)
class MatchConfirmationAdmin(ClubScopedAdmin):
    club_path = "match__round__tournament__club"
    list_display = ["match", "team", "confirmed_at"]
    list_select_related = ["match__table__round__tournament"]


@admin.register(DeviceCredential)
class DeviceCredentialAdmin(ClubScopedAdmin):
    club_path = "table__round__tournament__club"
    list_display = ["__str__", "created", "expires_at", "revoked_at"]
    list_select_related = ["table__round__tournament"]
    list_filter = ["revoked_at"]
    readonly_fields = ["code_hash", "created"]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False


@admin.register(StandingsSnapshot)
class StandingsSnapshotAdmin(ClubScopedAdmin):
    club_path = "tournament__club"
    list_display = ["tournament", "computed_version", "computed_at"]
    readonly_fields = ["tournament", "computed_version", "data", "computed_at"]


# --- the league of clubs (tournaments/leagues/services.py), appended ------------------------------


class LeagueScopedAdmin(admin.ModelAdmin):
    """Superusers see every league; a league's organisers (staff) see and change theirs."""

    league_path = ""

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        prefix = f"{self.league_path}__" if self.league_path else ""
        return queryset.filter(**{f"{prefix}organisers": request.user}).distinct()

    def _allowed(self, request: HttpRequest, obj: Model | None) -> bool:
        if request.user.is_superuser:
            return True
        if not (request.user.is_staff and request.user.organised_leagues.exists()):
            return False
        return obj is None or self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return self._allowed(request, None)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._allowed(request, obj)

    has_change_permission = has_view_permission
    has_delete_permission = has_view_permission

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return request.user.is_superuser


@admin.register(League)
class LeagueAdmin(LeagueScopedAdmin):
    list_display = ["name", "season", "slug", "is_public", "liga_target", "created"]
    search_fields = ["name", "slug"]
    filter_horizontal = ["organisers"]


@admin.register(Division)
class DivisionAdmin(LeagueScopedAdmin):
    league_path = "league"
    list_display = ["name", "league", "order"]
    list_select_related = ["league"]


@admin.register(LeagueTeam)
class LeagueTeamAdmin(LeagueScopedAdmin):
    league_path = "division__league"
    list_display = ["name", "club", "division", "captain"]
    list_select_related = ["club", "division__league", "captain"]
    filter_horizontal = ["roster"]


class MatchDayConfirmationInline(admin.TabularInline):
    model = MatchDayConfirmation
    extra = 0
    readonly_fields = ["confirmed_at"]


@admin.register(MatchDay)
class MatchDayAdmin(LeagueScopedAdmin):
    league_path = "division__league"
    list_display = [
        "__str__",
        "division",
        "starts_at",
        "venue",
        "status",
        "home_partien",
        "away_partien",
    ]
    list_select_related = ["division__league", "home", "away"]
    list_filter = ["status", "division__league"]
    readonly_fields = ["tournament", "accepted_at", "accepted_by", "sent_back_at"]
    inlines = [MatchDayConfirmationInline]


@admin.register(MatchDayConfirmation)
class MatchDayConfirmationAdmin(LeagueScopedAdmin):
    league_path = "match_day__division__league"
    list_display = ["match_day", "side", "user", "confirmed_at"]
    list_select_related = ["match_day__home", "match_day__away"]


@admin.register(Season)
class SeasonAdmin(ClubScopedAdmin):
    list_display = ["name", "club", "starts_on", "ends_on", "best_of", "min_evenings"]
    list_filter = ["club"]


@admin.register(OrganiserInvitation)
class OrganiserInvitationAdmin(ClubScopedAdmin):
    """Invitations are created in the console (the token is shown once there); the admin
    lists them and can end one by deleting it."""

    list_display = ["club", "created_by", "created", "expires_at", "accepted_by", "accepted_at"]
    list_filter = ["club"]
    readonly_fields = ["token_hash", "created_by", "accepted_by", "accepted_at"]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Users' API tokens, for superusers only: listed (never the token, which is stored
    only hashed) and revoked by deleting. They are issued through the API."""

    list_display = ["user", "name", "created", "last_used"]
    search_fields = ["user__username", "name"]
    readonly_fields = ["user", "name", "key_hash", "created", "last_used"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return bool(request.user.is_superuser)

    def has_view_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_delete_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return bool(request.user.is_superuser)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Any = None) -> bool:
        return False
