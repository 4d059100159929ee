"""The history import's API bodies: the upload, the preview (with every refused row's
reason in the reader's language), the confirmation and an import."""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from tournaments.history.models import HistoryImport
from tournaments.history.refusals import row_text
from tournaments.history.services import Preview


class UploadSerializer(serializers.Serializer[Any]):
    file = serializers.FileField(allow_empty_file=True)
    create_players = serializers.BooleanField(default=True)


class ConfirmSerializer(serializers.Serializer[Any]):
    token = serializers.CharField(max_length=64)


class RefusalSerializer(serializers.Serializer[Any]):
    code = serializers.CharField()
    line = serializers.IntegerField()
    column = serializers.CharField()
    value = serializers.CharField()
    detail = serializers.CharField()


class PreviewSerializer(serializers.Serializer[Any]):
    token = serializers.CharField()
    file_name = serializers.CharField()
    sha256 = serializers.CharField()
    create_players = serializers.BooleanField()
    players = serializers.ListField(child=serializers.DictField())
    matched_players = serializers.ListField(child=serializers.CharField())
    evenings = serializers.ListField(child=serializers.DictField())
    seasons = serializers.ListField(child=serializers.CharField())
    new_seasons = serializers.ListField(child=serializers.DictField())
    matched_seasons = serializers.ListField(child=serializers.CharField())
    refusals = RefusalSerializer(many=True)


def preview_body(preview: Preview) -> dict[str, Any]:
    body = preview.to_dict()
    body["refusals"] = [{**r, "detail": row_text(r["code"], r)} for r in body["refusals"]]
    return body


class HistoryImportSerializer(serializers.ModelSerializer[HistoryImport]):
    evenings = serializers.SerializerMethodField()
    created_by = serializers.SerializerMethodField()
    created_seasons = serializers.SerializerMethodField()

    class Meta:
        model = HistoryImport
        fields = [
            "id",
            "club",
            "created",
            "created_by",
            "file_name",
            "file_sha256",
            "evenings",
            "created_seasons",
        ]

    def get_evenings(self, batch: HistoryImport) -> list[str]:
        return [e.date.isoformat() for e in batch.evenings.order_by("date")]

    def get_created_seasons(self, batch: HistoryImport) -> list[dict[str, Any]]:
        return [{"id": s.pk, "name": s.name} for s in batch.created_seasons.order_by("starts_on")]

    def get_created_by(self, batch: HistoryImport) -> str:
        return batch.created_by.get_username() if batch.created_by else ""
