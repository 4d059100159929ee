"""The history import through the API (the club's organisers only):

- ``POST /api/clubs/{id}/history-imports/preview/`` (multipart: ``file``, optional
  ``create_players``): what the import would create and every refused row; writes nothing
- ``POST /api/clubs/{id}/history-imports/`` (``{"token": ...}`` of a preview): import it
- ``GET /api/clubs/{id}/history-imports/``: the club's imports
- ``DELETE /api/clubs/{id}/history-imports/{import_id}/``: remove an import as a whole
"""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import extend_schema
from rest_framework import permissions, status
from rest_framework.parsers import MultiPartParser
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from klammern_site.parsers import ParsedBody, SafeJSONParser
from tournaments.clubs.models import Club
from tournaments.clubs.permissions import require_organiser
from tournaments.common.errors import NotFound, Refused
from tournaments.events.permissions import NotADevice
from tournaments.history import parsing, selectors, services
from tournaments.history.refusals import FILE_MESSAGES
from tournaments.history.serializers import (
    ConfirmSerializer,
    HistoryImportSerializer,
    PreviewSerializer,
    UploadSerializer,
    preview_body,
)

ORGANISER = {"x-permissions": ["organiser"]}


def organised_club(request: Request, club_id: int) -> Club:
    """The club, if the caller organises it (404 unknown, 403 not theirs)."""
    club = Club.objects.filter(pk=club_id).first()
    if club is None:
        raise NotFound("not_found", "Not found.")
    require_organiser(request.user, club.pk)
    return club


def uploaded_bytes(upload: Any) -> bytes:
    """The uploaded file, read only when not over the limit."""
    if upload.size > parsing.MAX_BYTES:
        raise Refused(
            "file_too_large",
            FILE_MESSAGES["file_too_large"],
            params={"limit": parsing.MAX_BYTES // 1_000_000},
        )
    return bytes(upload.read())


class HistoryPreviewView(ParsedBody, APIView):
    permission_classes = [NotADevice, permissions.IsAuthenticated]
    parser_classes = [MultiPartParser, SafeJSONParser]  # JSON: refused as every write refuses it

    @extend_schema(request=UploadSerializer, responses=PreviewSerializer, extensions=ORGANISER)
    def post(self, request: Request, pk: int) -> Response:
        """Read the file and show what its import would create; nothing is written."""
        club = organised_club(request, pk)
        data = UploadSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        upload = data.validated_data["file"]
        preview = services.preview_import(
            club=club,
            user=request.user,
            data=uploaded_bytes(upload),
            file_name=upload.name or "",
            create_players=data.validated_data["create_players"],
        )
        return Response(preview_body(preview))


class HistoryImportListView(ParsedBody, APIView):
    permission_classes = [NotADevice, permissions.IsAuthenticated]
    parser_classes = [SafeJSONParser]

    @extend_schema(responses=HistoryImportSerializer(many=True), extensions=ORGANISER)
    def get(self, request: Request, pk: int) -> Response:
        """The club's imports, newest first."""
        club = organised_club(request, pk)
        return Response(HistoryImportSerializer(selectors.club_imports(club), many=True).data)

    @extend_schema(
        request=ConfirmSerializer, responses=HistoryImportSerializer, extensions=ORGANISER
    )
    def post(self, request: Request, pk: int) -> Response:
        """Import a previewed file (its ``token``), all of it in one transaction."""
        club = organised_club(request, pk)
        data = ConfirmSerializer(data=request.data)
        data.is_valid(raise_exception=True)
        batch = services.confirm_import(
            club=club, user=request.user, token=data.validated_data["token"]
        )
        return Response(HistoryImportSerializer(batch).data, status=status.HTTP_201_CREATED)


class HistoryImportDetailView(ParsedBody, APIView):
    permission_classes = [NotADevice, permissions.IsAuthenticated]

    @extend_schema(responses={204: None}, extensions=ORGANISER)
    def delete(self, request: Request, pk: int, import_id: int) -> Response:
        """Remove the import: its evenings, and the players it created that played
        nothing else; the club tables are as before it."""
        club = organised_club(request, pk)
        services.remove_import(club=club, import_id=import_id)
        return Response(status=status.HTTP_204_NO_CONTENT)
