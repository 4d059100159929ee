"""The API's content negotiation answers as DRF's own for every ``Accept`` header: the
plain JSON ones at once, the rest (406 included) by DRF."""

from __future__ import annotations

from typing import Any

import pytest
from django.http import Http404
from rest_framework.exceptions import NotAcceptable
from rest_framework.negotiation import DefaultContentNegotiation
from rest_framework.renderers import BaseRenderer, BrowsableAPIRenderer, JSONRenderer
from rest_framework.request import Request
from rest_framework.test import APIRequestFactory

from tests.conftest import Event, client_for
from tests.factories import summary_record
from tournaments.common.negotiation import PlainAcceptNegotiation


class CsvRenderer(BaseRenderer):
    media_type = "text/csv"
    format = "csv"


ACCEPTS = [
    None,
    "*/*",
    "application/json",
    " application/json ",
    "application/json; indent=4",
    "application/json, text/html",
    "text/html",
    "text/csv",
    "text/*",
    "application/*",
    "*/*;q=0.8, text/csv",
    "",
    "nonsense",
]
RENDERERS = [
    [JSONRenderer],
    [JSONRenderer, BrowsableAPIRenderer],
    [CsvRenderer, JSONRenderer],
    [CsvRenderer],
]


def choice(negotiation: Any, request: Request, renderers: list[Any], suffix: Any) -> Any:
    try:
        renderer, media_type = negotiation.select_renderer(request, renderers, suffix)
    except NotAcceptable:
        return "406"
    except Http404:  # a format suffix no renderer has
        return "404"
    return type(renderer), media_type


@pytest.mark.parametrize("accept", ACCEPTS)
@pytest.mark.parametrize("classes", RENDERERS)
@pytest.mark.parametrize("suffix", [None, "json", "csv"])
def test_the_same_choice_as_drf(accept: str | None, classes: list[Any], suffix: Any) -> None:
    headers = {} if accept is None else {"HTTP_ACCEPT": accept}
    request = Request(APIRequestFactory().get("/api/clubs/", **headers))
    renderers = [renderer() for renderer in classes]
    ours = choice(PlainAcceptNegotiation(), request, renderers, suffix)
    assert ours == choice(DefaultContentNegotiation(), request, renderers, suffix)


@pytest.mark.django_db
def test_a_deal_entry_asking_for_another_type_is_refused_as_before(event: Event) -> None:
    tablet = client_for(device_code=event.code1)
    url = f"/api/matches/{event.match1.pk}/deals/1/"
    refused = tablet.post(
        url, summary_record(), format="json", HTTP_ACCEPT="text/csv", HTTP_IDEMPOTENCY_KEY="k1"
    )
    assert refused.status_code == 406 and refused.json()["code"] == "not_acceptable"
    entered = tablet.post(
        url, summary_record(), format="json", HTTP_ACCEPT="*/*", HTTP_IDEMPOTENCY_KEY="k2"
    )
    assert entered.status_code == 201 and entered["Content-Type"] == "application/json"
