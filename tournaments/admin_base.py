"""The admin's base classes: an organiser sees and changes only the rows of the clubs
they organise, and deleting a club or tournament lifts the deal history's guard for
its own transaction."""

from __future__ import annotations

from typing import Any

from django.contrib import admin
from django.db.models import Model, QuerySet
from django.http import HttpRequest

from tournaments.clubs.models import Club
from tournaments.deals.services import deleting_history


def is_organiser(request: HttpRequest) -> bool:
    user = request.user
    return bool(user.is_active and user.is_staff and user.organised_clubs.exists())


class ClubScopedAdmin(admin.ModelAdmin):
    """Restricts an organiser to objects whose ``club_path`` leads to one of their clubs."""

    club_path = "club"

    def get_queryset(self, request: HttpRequest) -> QuerySet[Any]:
        queryset = super().get_queryset(request)
        if request.user.is_superuser:
            return queryset
        return queryset.filter(**{f"{self.club_path}__organisers": request.user}).distinct()

    def _allowed(self, request: HttpRequest, obj: Model | None) -> bool:
        if request.user.is_superuser:
            return True
        if not is_organiser(request):
            return False
        return obj is None or self.get_queryset(request).filter(pk=obj.pk).exists()

    def has_module_permission(self, request: HttpRequest) -> bool:
        return request.user.is_superuser or is_organiser(request)

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._allowed(request, obj)

    def has_change_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._allowed(request, obj)

    def has_add_permission(self, request: HttpRequest, *args: Any) -> bool:
        return self._allowed(request, None)

    def has_delete_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return self._allowed(request, obj)

    def formfield_for_foreignkey(self, db_field: Any, request: HttpRequest, **kwargs: Any) -> Any:
        if db_field.related_model is Club and not request.user.is_superuser:
            kwargs["queryset"] = Club.objects.filter(organisers=request.user)
        return super().formfield_for_foreignkey(db_field, request, **kwargs)


class ScopedInline(admin.TabularInline):
    extra = 0

    def has_view_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return request.user.is_superuser or is_organiser(request)

    has_change_permission = has_view_permission
    has_delete_permission = has_view_permission

    def has_add_permission(self, request: HttpRequest, obj: Model | None = None) -> bool:
        return request.user.is_superuser or is_organiser(request)


class DeletesWithHistory(admin.ModelAdmin):
    """Deleting a whole club or tournament deletes its deals' versions with it: the one
    deletion the append-only triggers on deal versions (``games.models``) let through."""

    def delete_model(self, request: HttpRequest, obj: Any) -> None:
        with deleting_history():
            super().delete_model(request, obj)

    def delete_queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> None:
        with deleting_history():
            super().delete_queryset(request, queryset)
