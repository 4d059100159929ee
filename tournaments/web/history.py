"""The organiser's console for the club's history import: upload a spreadsheet, see the
preview (what will be created, every refused row with its reason), confirm it; the list
of the club's imports, each removable as a whole after a confirmation."""

from __future__ import annotations

from pathlib import Path

from django import forms
from django.conf import settings
from django.contrib import messages
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_POST

from tournaments.common.errors import ApplicationError, Refused
from tournaments.history import parsing, selectors, services
from tournaments.history.refusals import FILE_MESSAGES, row_text

from .clubs import organised_club
from .console import organiser_required, service_message

SAMPLES = {
    "csv": ("text/csv; charset=utf-8", "history-sample.csv"),
    "xlsx": (
        "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
        "history-sample.xlsx",
    ),
}


def history_sample(request: HttpRequest, kind: str) -> HttpResponse:
    """The sample spreadsheet of ``docs/`` (``scripts/history_sample.py`` writes it)."""
    if kind not in SAMPLES:
        raise Http404
    content_type, name = SAMPLES[kind]
    response = HttpResponse(
        (Path(settings.BASE_DIR) / "docs" / name).read_bytes(), content_type=content_type
    )
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


class UploadForm(forms.Form):
    file = forms.FileField(label=gettext_lazy("Spreadsheet (CSV or .xlsx)"), allow_empty_file=True)
    create_players = forms.BooleanField(
        label=gettext_lazy("Create the players the club does not have yet"),
        required=False,
        initial=True,
    )


def _preview_context(preview: services.Preview) -> dict[str, object]:
    refusals = [
        {**r.to_dict(), "detail": row_text(r.code, r.to_dict())} for r in preview.plan.refusals
    ]
    return {"preview": preview, "plan": preview.plan, "refusals": refusals}


@organiser_required
def history(request: HttpRequest, pk: int) -> HttpResponse:
    """Upload and preview (POST with a file), or the page with the club's imports."""
    club = organised_club(request, pk)
    form = UploadForm(request.POST or None, request.FILES or None)
    context: dict[str, object] = {"club": club, "form": form}
    if request.method == "POST" and form.is_valid():
        upload = form.cleaned_data["file"]
        try:
            if upload.size > parsing.MAX_BYTES:
                raise Refused(
                    "file_too_large",
                    FILE_MESSAGES["file_too_large"],
                    params={"limit": parsing.MAX_BYTES // 1_000_000},
                )
            preview = services.preview_import(
                club=club,
                user=request.user,
                data=upload.read(),
                file_name=upload.name or "",
                create_players=form.cleaned_data["create_players"],
            )
        except ApplicationError as exc:
            form.add_error("file", service_message(exc))
        else:
            context.update(_preview_context(preview))
    context["imports"] = selectors.club_imports(club)
    return render(request, "console/history.html", context)


@organiser_required
@require_POST
def history_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    club = organised_club(request, pk)
    try:
        batch = services.confirm_import(
            club=club, user=request.user, token=request.POST.get("token", "")
        )
    except ApplicationError as exc:
        messages.error(request, service_message(exc))
    else:
        count = batch.evenings.count()
        messages.success(request, _("%(count)s evenings are imported.") % {"count": count})
    return redirect("console-club-history", pk=club.pk)


@organiser_required
@require_POST
def history_remove(request: HttpRequest, pk: int, import_id: int) -> HttpResponse:
    club = organised_club(request, pk)
    if request.POST.get("confirm") != "yes":
        messages.error(request, _("Tick the box to confirm the removal."))
        return redirect("console-club-history", pk=club.pk)
    try:
        services.remove_import(club=club, import_id=import_id)
    except ApplicationError as exc:
        messages.error(request, service_message(exc))
    else:
        messages.success(request, _("The import is removed."))
    return redirect("console-club-history", pk=club.pk)
