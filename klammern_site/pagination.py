"""Default page-number pagination for the API: 50 per page, ``?page_size=`` from 1 to 200.

A ``page_size`` outside that range, or not a whole number (an empty one included), is a
400 with a message saying the range, rather than being silently clamped or ignored: a
client asking for a million rows learns at once that it will not get them. ``?page=`` is
a whole number from 1 (or ``last``); anything else is a 400 too, and a page past the end
is DRF's 404.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import gettext_lazy as _
from rest_framework.exceptions import ValidationError
from rest_framework.pagination import PageNumberPagination
from rest_framework.request import Request


class StandardPagination(PageNumberPagination):
    page_size = 50
    page_size_query_param = "page_size"
    max_page_size = 200

    def get_page_size(self, request: Request) -> int:
        raw = request.query_params.get(self.page_size_query_param)
        if raw is None:
            return self.page_size
        size = whole_number(raw)
        if size is None or not 1 <= size <= self.max_page_size:
            raise ValidationError(
                {
                    "detail": _("page_size must be a whole number from 1 to %(max)s.")
                    % {"max": self.max_page_size}
                }
            )
        return size

    def get_page_number(self, request: Request, paginator: Any) -> Any:
        raw = request.query_params.get(self.page_query_param)
        if raw is None:
            return 1
        if raw in self.last_page_strings:
            return paginator.num_pages
        number = whole_number(raw)
        if number is None or number < 1:
            raise ValidationError({"detail": _("page must be a whole number from 1.")})
        return number

    def get_schema_operation_parameters(self, view: Any) -> list[dict[str, Any]]:
        parameters = super().get_schema_operation_parameters(view)
        for parameter in parameters:
            if parameter["name"] == self.page_size_query_param:
                parameter["schema"].update({"minimum": 1, "maximum": self.max_page_size})
            if parameter["name"] == self.page_query_param:
                parameter["schema"].update({"minimum": 1})
        return parameters


def whole_number(raw: str) -> int | None:
    """``raw`` as a whole number of at most 9 digits, else None."""
    return int(raw) if len(raw) <= 9 and raw.isascii() and raw.isdigit() else None
