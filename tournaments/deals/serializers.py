"""Output serializers for deals and their versions. Deal records are validated by the
rules engine in ``tournaments/deals/services.py``, not here."""

from __future__ import annotations

from typing import Any

from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from games.models import Deal, DealVersion
from klammern_site.serializers import ModelSerializer


class DealVersionSerializer(ModelSerializer):
    entered_by = serializers.SerializerMethodField()

    class Meta:
        model = DealVersion
        fields = [
            "version",
            "is_current",
            "record",
            "result",
            "engine_version",
            "entered_by",
            "reason",
            "created",
        ]

    def get_entered_by(self, version: DealVersion) -> str:
        return entered_by(version)


def entered_by(version: DealVersion) -> str:
    if version.created_by_device_id:
        return f"device:{version.created_by_device_id}"
    if version.created_by_user_id:
        return f"user:{version.created_by_user_id}"
    return ""


class DealSerializer(ModelSerializer):
    version = serializers.SerializerMethodField()
    result = serializers.SerializerMethodField()
    record = serializers.SerializerMethodField()
    match_status = serializers.CharField(source="match.status", read_only=True)
    history = serializers.SerializerMethodField()

    class Meta:
        model = Deal
        fields = ["match", "number", "version", "record", "result", "match_status", "history"]

    def _current(self, deal: Deal) -> DealVersion:
        return next(v for v in deal.versions.all() if v.is_current)

    def _versions(self, deal: Deal) -> list[DealVersion]:
        return sorted(deal.versions.all(), key=lambda v: v.version)

    def get_version(self, deal: Deal) -> int:
        return self._current(deal).version

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_result(self, deal: Deal) -> dict[str, Any]:
        return self._current(deal).result

    @extend_schema_field(OpenApiTypes.OBJECT)
    def get_record(self, deal: Deal) -> dict[str, Any]:
        return self._current(deal).record

    @extend_schema_field(DealVersionSerializer(many=True))
    def get_history(self, deal: Deal) -> list[dict[str, Any]]:
        return DealVersionSerializer(self._versions(deal), many=True).data


_CREATED = serializers.DateTimeField()


def version_body(version: DealVersion) -> dict[str, Any]:
    """``DealVersionSerializer`` output for a version in hand, without DRF's field
    machinery (the deal-entry hot path)."""
    return {
        "version": version.version,
        "is_current": version.is_current,
        "record": version.record,
        "result": version.result,
        "engine_version": version.engine_version,
        "entered_by": entered_by(version),
        "reason": version.reason,
        "created": _CREATED.to_representation(version.created),
    }


def deal_body(current: DealVersion, *, history: list[DealVersion]) -> dict[str, Any]:
    """``DealSerializer`` output built from the rows just written: ``current`` with its
    ``deal`` and the deal's ``match`` attached, ``history`` every version of the deal."""
    deal = current.deal
    return {
        "match": deal.match_id,
        "number": deal.number,
        "version": current.version,
        "record": current.record,
        "result": current.result,
        "match_status": deal.match.status,
        "history": [version_body(v) for v in sorted(history, key=lambda v: v.version)],
    }
