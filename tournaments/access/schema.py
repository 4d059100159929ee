"""The OpenAPI contract beyond what drf-spectacular infers (loaded in AppConfig.ready).

- ``DeviceAuthenticationScheme``: the table device's ``Authorization: Device <code>``.
- ``contract_hook`` (a ``POSTPROCESSING_HOOKS`` entry), per operation:

  * **who may call it**: the views' permission classes are asked for an anonymous
    visitor, a signed-in organiser (``Token`` or session) and a table device; the answer
    is ``x-permissions``, a "Who may call" line in the description, and the operation's
    ``security`` (``{}`` when anonymous callers are served). Writes are never anonymous
    (the views check the organiser's club or the device's table themselves) except
    ``/api/auth/token/``; ``extend_schema(extensions={"x-permissions": [...]})`` on a
    view states it where a view narrows it further (``progress``: organisers only).
  * **every error status with its body**: ``Error`` (``code``, ``detail``, ``errors``?)
    and, for 400, ``ValidationError`` (DRF's field errors beside ``code: "invalid"``):
    400 for bodies and query parameters, 401 where credentials are read, 403 where a
    caller can be refused, 404 for paths with ids and for pages beyond the last, 409 for
    writes, 413 and 415 for the body of every write (even one that takes none), 429
    everywhere (throttles; ``Retry-After``), 503 (the database unreachable;
    ``Retry-After``). Statuses a view declares itself (412, 422, 428 on deals) get the
    same ``Error`` body.
  * **links** for schemathesis' stateful phase: a created tournament, player,
    registration, round, table, match, league, division and team lead to the
    operations on it.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from django.contrib.auth.models import AnonymousUser
from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from rest_framework.permissions import SAFE_METHODS

from tournaments.events.models import DeviceCredential


class DeviceAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "tournaments.access.authentication.DeviceAuthentication"
    name = "deviceAuth"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A table's code, sent as `Device <code>`.",
        }


# --- the error bodies -------------------------------------------------------------------

ERROR = {
    "type": "object",
    "description": "Every error of the API: a stable machine-readable `code` and a "
    "message for people (English unless the request sends `Accept-Language`).",
    "properties": {
        "code": {
            "type": "string",
            "description": "Stable, for programs: e.g. `not_found`, `permission_denied`, "
            "`not_authenticated`, `authentication_failed`, `throttled`, `too_many_failures`, "
            "`body_too_large`, `round_not_open`, `deal_exists`, `stale_version`.",
        },
        "detail": {"type": "string", "description": "What went wrong, for people."},
        "errors": {
            "type": "array",
            "description": "The rules engine's findings on a deal record, each with its "
            "own `code`.",
            "items": {"type": "object", "additionalProperties": True},
        },
    },
    "required": ["code", "detail"],
    "additionalProperties": True,
}
VALIDATION_ERROR = {
    "type": "object",
    "description": "A request the serializers refused: `code` is `invalid` (or the "
    "code of a single refusal), `detail` names the first problem; every other property is "
    "a field of the request with its messages (`non_field_errors`: the whole object), as "
    "DRF reports them. An application refusal (`Error`) is a 400 as well.",
    "properties": {
        "code": {"type": "string", "example": "invalid"},
        "detail": {"type": "string", "example": "name: This field is required."},
        "non_field_errors": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["code", "detail"],
    "additionalProperties": True,
}
ERROR_REF = {"$ref": "#/components/schemas/Error"}
RETRY_AFTER = {
    "Retry-After": {
        "description": "Seconds to wait before trying again.",
        "schema": {"type": "integer"},
    }
}
RESPONSES: dict[str, dict[str, Any]] = {
    "400": {
        "description": "The request is malformed or refused (`ValidationError` for field "
        "errors, `Error` for the rules).",
        "content": {
            "application/json": {
                "schema": {"anyOf": [{"$ref": "#/components/schemas/ValidationError"}, ERROR_REF]}
            }
        },
    },
    "401": {
        "description": "The credentials sent are unknown, revoked or expired "
        "(`authentication_failed`), or missing where only a device may call.",
        "headers": {
            "WWW-Authenticate": {
                "description": "The scheme to use: `Device`.",
                "schema": {"type": "string"},
            }
        },
    },
    "403": {"description": "This caller may not do this (`permission_denied`)."},
    "404": {"description": "No such object, or not visible to this caller (`not_found`)."},
    "409": {"description": "The state of the tournament does not allow it now."},
    "412": {"description": "The version named in `If-Match` is no longer current."},
    "413": {"description": "The request body is too large (`body_too_large`)."},
    "415": {"description": "The body's media type is not accepted."},
    "422": {"description": "The Idempotency-Key was used for another request."},
    "428": {"description": "A correction needs `If-Match`."},
    "429": {
        "description": "Too many requests (`throttled`), or too many failed sign-ins "
        "(`too_many_failures`).",
        "headers": RETRY_AFTER,
    },
    "503": {
        "description": "The database is unreachable; nothing was stored (`database_unavailable`).",
        "headers": RETRY_AFTER,
    },
}
RESPONSE_NAMES = {
    "400": "BadRequest",
    "401": "Unauthorized",
    "403": "Forbidden",
    "404": "NotFound",
    "409": "Conflict",
    "412": "PreconditionFailed",
    "413": "PayloadTooLarge",
    "415": "UnsupportedMediaType",
    "422": "UnprocessableEntity",
    "428": "PreconditionRequired",
    "429": "TooManyRequests",
    "503": "ServiceUnavailable",
}
UNSAFE = ("post", "put", "patch", "delete")


def error_responses() -> dict[str, Any]:
    responses = {}
    for status, response in RESPONSES.items():
        responses[RESPONSE_NAMES[status]] = {
            "content": {"application/json": {"schema": ERROR_REF}},
            **response,
        }
    return responses


# --- who may call -------------------------------------------------------------------------

CALLERS = ("anonymous", "organiser", "device")
CALLER_WORDS = {
    "anonymous": "anyone, without credentials",
    "organiser": "a signed-in organiser (`Token` or session; the view checks the club, "
    "league or team)",
    "device": "a table device (`Device <code>`; its own table only)",
}
SECURITY = {
    "device": [{"deviceAuth": []}],
    "organiser": [{"tokenAuth": []}, {"cookieAuth": []}],
    "anonymous": [{}],
}


def persona(caller: str, method: str) -> Any:
    signed_in = SimpleNamespace(is_authenticated=True, is_superuser=False, pk=None)
    user = signed_in if caller == "organiser" else AnonymousUser()
    auth = DeviceCredential() if caller == "device" else None
    return SimpleNamespace(method=method, user=user, auth=auth, query_params={}, data={})


def callers_of(view: Any, method: str) -> list[str]:
    """Who the view's permission classes let through for ``method``."""
    if not view.get_authenticators():
        return ["anonymous"]  # the token view: credentials are what it hands out
    allowed = []
    for caller in CALLERS:
        if caller == "anonymous" and method not in SAFE_METHODS:
            continue
        request = persona(caller, method)
        try:
            passes = all(p.has_permission(request, view) for p in view.get_permissions())
        except Exception:  # noqa: BLE001 - a permission that needs a real request refuses
            passes = False
        if passes:
            allowed.append(caller)
    return allowed


# --- headers -------------------------------------------------------------------------------

ETAG = {
    "ETag": {
        "description": "The version of what the response shows: a deal's version "
        '(`"2"`, for `If-Match` when correcting it) or the standings\' state (for '
        "`If-None-Match`).",
        "schema": {"type": "string"},
    }
}
REPLAYED = {
    "Idempotent-Replayed": {
        "description": "`true` when this is the stored answer to an earlier request with "
        "the same Idempotency-Key.",
        "schema": {"type": "string", "enum": ["true"]},
    }
}
#: operationId -> status -> response headers
RESPONSE_HEADERS: dict[str, dict[str, dict[str, Any]]] = {
    "matches_deals_retrieve": {"200": ETAG},
    "matches_deals_create": {"201": {**ETAG, **REPLAYED}},
    "matches_deals_update": {"200": {**ETAG, **REPLAYED}},
    "tournaments_standings_retrieve": {"200": ETAG, "304": ETAG},
}


def add_headers(operation: dict[str, Any]) -> None:
    for status, headers in RESPONSE_HEADERS.get(operation["operationId"], {}).items():
        response = operation["responses"].get(status)
        if response is not None and "$ref" not in response:
            response.setdefault("headers", {}).update(headers)


# --- links for the stateful phase ---------------------------------------------------------

#: (operation that creates, its status) -> {link name: (operationId, parameters, body)}
LINKS: dict[tuple[str, str], dict[str, tuple[str, dict[str, str], dict[str, str] | None]]] = {
    ("tournaments_create", "201"): {
        "GetTournament": ("tournaments_retrieve", {"id": "$response.body#/id"}, None),
        "UpdateTournament": ("tournaments_partial_update", {"id": "$response.body#/id"}, None),
        "StartTournament": ("tournaments_start_create", {"id": "$response.body#/id"}, None),
        "DrawRound": ("tournaments_rounds_create", {"id": "$response.body#/id"}, None),
        "Standings": ("tournaments_standings_retrieve", {"id": "$response.body#/id"}, None),
        "Register": (
            "registrations_create",
            {},
            {"tournament": "$response.body#/id"},
        ),
        "ForbidPairing": (
            "tournaments_forbidden_pairings_create",
            {"id": "$response.body#/id"},
            None,
        ),
    },
    ("players_create", "201"): {
        "GetPlayer": ("players_retrieve", {"id": "$response.body#/id"}, None),
        "UpdatePlayer": ("players_partial_update", {"id": "$response.body#/id"}, None),
        "Register": ("registrations_create", {}, {"player": "$response.body#/id"}),
    },
    ("registrations_create", "201"): {
        "GetRegistration": ("registrations_retrieve", {"id": "$response.body#/id"}, None),
        "CheckIn": ("registrations_check_in_create", {"id": "$response.body#/id"}, None),
        "Withdraw": ("registrations_withdraw_create", {"id": "$response.body#/id"}, None),
        "FixTable": ("registrations_fixed_table", {"id": "$response.body#/id"}, None),
    },
    ("tournaments_rounds_create", "202"): {
        "GetRound": ("rounds_retrieve", {"id": "$response.body#/id"}, None),
        "Publish": ("rounds_publish_create", {"id": "$response.body#/id"}, None),
        "Redraw": ("rounds_redraw_create", {"id": "$response.body#/id"}, None),
        "Progress": ("rounds_progress_list", {"id": "$response.body#/id"}, None),
        "Close": ("rounds_close_create", {"id": "$response.body#/id"}, None),
    },
    ("tournaments_forbidden_pairings_create", "201"): {
        "Allow": ("forbidden_pairings_destroy", {"id": "$response.body#/id"}, None),
    },
    ("leagues_create", "201"): {
        "GetLeague": ("leagues_retrieve", {"id": "$response.body#/id"}, None),
        "AddDivision": ("divisions_create", {}, {"league": "$response.body#/id"}),
    },
    ("divisions_create", "201"): {
        "GetDivision": ("divisions_retrieve", {"id": "$response.body#/id"}, None),
        "Table": ("divisions_table_list", {"id": "$response.body#/id"}, None),
        "Fixtures": ("divisions_fixtures_create", {"id": "$response.body#/id"}, None),
        "EnterTeam": ("league_teams_create", {}, {"division": "$response.body#/id"}),
    },
    ("league_teams_create", "201"): {
        "GetTeam": ("league_teams_retrieve", {"id": "$response.body#/id"}, None),
    },
}


def add_links(operations: dict[str, dict[str, Any]]) -> None:
    for (operation_id, status), links in LINKS.items():
        source = operations.get(operation_id)
        response = source and source["responses"].get(status)
        if not response or "$ref" in response:
            continue
        declared = {}
        for name, (target, parameters, body) in links.items():
            if target not in operations:
                continue
            link: dict[str, Any] = {"operationId": target}
            if parameters:
                link["parameters"] = parameters
            if body:
                link["requestBody"] = body
            declared[name] = link
        if declared:
            response["links"] = declared


# --- the hook -----------------------------------------------------------------------------


def describe(operation: dict[str, Any], callers: list[str]) -> None:
    operation["x-permissions"] = callers
    who = "; ".join(CALLER_WORDS[c] for c in callers) or "nobody"
    line = f"**Who may call:** {who}."
    description = operation.get("description", "")
    operation["description"] = f"{description}\n\n{line}" if description else line
    security: list[dict[str, list[str]]] = []
    for caller in ("device", "organiser", "anonymous"):
        if caller in callers:
            security += SECURITY[caller]
    operation["security"] = security


def document_errors(path: str, method: str, operation: dict[str, Any], view: Any) -> None:
    responses = operation["responses"]
    for status, response in responses.items():  # declared by the view: the Error body
        if status[0] in "45" and "$ref" not in response:
            response["content"] = {"application/json": {"schema": ERROR_REF}}
            response.setdefault("headers", RESPONSES.get(status, {}).get("headers", {}))
            if not response["headers"]:
                del response["headers"]
    parameters = operation.get("parameters", [])
    has_body = method in UNSAFE and method != "delete"
    wanted = ["429", "503"]
    if has_body or method in UNSAFE or any(p["in"] in ("query", "header") for p in parameters):
        wanted.append("400")
    if view.get_authenticators():
        wanted += ["401", "403"]
    if "{" in path or any(p["in"] == "query" and p["name"] == "page" for p in parameters):
        wanted.append("404")
    if method in UNSAFE and operation["x-permissions"] != ["anonymous"]:
        wanted.append("409")
    if method in UNSAFE:  # every write's body is parsed (``ParsedBody``), sent or not
        wanted += ["413", "415"]
    for status in sorted(wanted):
        responses.setdefault(status, {"$ref": f"#/components/responses/{RESPONSE_NAMES[status]}"})
    operation["responses"] = dict(sorted(responses.items()))


class ContractSchema(AutoSchema):
    """drf-spectacular's schema of one operation, plus who may call it, every error status
    with its body, and the headers it reads and sends (``DEFAULT_SCHEMA_CLASS``)."""

    def get_operation(self, *args: Any, **kwargs: Any) -> dict[str, Any] | None:
        operation = super().get_operation(*args, **kwargs)
        if operation is None:
            return None
        method = self.method.upper()
        saved = getattr(self.view, "request", None)
        self.view.request = SimpleNamespace(method=method, user=AnonymousUser(), auth=None)
        try:
            callers = operation.get("x-permissions") or callers_of(self.view, method)
        finally:
            self.view.request = saved
        describe(operation, callers)
        document_errors(self.path, self.method.lower(), operation, self.view)
        add_headers(operation)
        return operation


def contract_hook(result: dict[str, Any], generator: Any, request: Any, public: bool) -> Any:
    """``POSTPROCESSING_HOOKS``: the error components every operation refers to, and the
    links between operations for the stateful tests."""
    components = result.setdefault("components", {})
    components.setdefault("schemas", {}).update(
        {"Error": ERROR, "ValidationError": VALIDATION_ERROR}
    )
    components.setdefault("responses", {}).update(error_responses())
    operations = {
        operation["operationId"]: operation
        for methods in result["paths"].values()
        for operation in methods.values()
        if isinstance(operation, dict) and "operationId" in operation
    }
    add_links(operations)
    return result
