"""Admin for deals: organisers see their clubs' deals and every version. Versions are
read-only here; corrections go through the API so the engine validates them."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.contrib.admin.options import ActionLocation
from django.core.exceptions import PermissionDenied
from django.db.models import Model
from django.http import HttpRequest

from games.models import Deal, DealVersion, IdempotencyRecord
from tournaments.admin_base import ClubScopedAdmin, ScopedInline


class DealVersionInline(ScopedInline):
    model = DealVersion
    fields = [
        "version",
        "is_current",
        "outcome",
        "points_0",
        "points_1",
        "engine_version",
        "created_by_user",
        "created_by_device",
        "reason",
        "created",
    ]
    readonly_fields = fields

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return False


class NotDeletedAlone(admin.ModelAdmin):
    """Deals and their versions are append-only (the database refuses deleting them):
    no delete page or action of their own. ``has_delete_permission`` stays as it is, as
    deleting a whole tournament or club in the admin checks it for the rows it takes
    along (see ``tournaments.admin_base.DeletesWithHistory``)."""

    def delete_view(self, request: HttpRequest, object_id: str, extra_context: Any = None) -> Any:
        raise PermissionDenied

    def get_actions(
        self, request: HttpRequest, action_location: Any = ActionLocation.CHANGE_LIST
    ) -> dict[str, Any]:
        actions = super().get_actions(request, action_location=action_location)
        actions.pop("delete_selected", None)
        return actions


@admin.register(Deal)
class DealAdmin(NotDeletedAlone, ClubScopedAdmin):
    club_path = "match__round__tournament__club"
    list_display = ["__str__", "match", "number", "created"]
    list_filter = ["match__round__tournament"]
    inlines = [DealVersionInline]


@admin.register(DealVersion)
class DealVersionAdmin(NotDeletedAlone, ClubScopedAdmin):
    club_path = "deal__match__round__tournament__club"
    list_display = ["deal", "version", "is_current", "outcome", "winner_team", "created"]
    list_filter = ["is_current", "outcome", "deal__match__round__tournament"]
    readonly_fields = [f.name for f in DealVersion._meta.fields]

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return False


@admin.register(IdempotencyRecord)
class IdempotencyRecordAdmin(admin.ModelAdmin):
    list_display = ["scope", "key", "status_code", "created"]
    search_fields = ["scope", "key"]
    readonly_fields = ["scope", "key", "request_hash", "status_code", "response_body", "etag"]

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return request.user.is_superuser

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False
