"""OpenAPI description of the table-device authentication (loaded in AppConfig.ready)."""

from drf_spectacular.extensions import OpenApiAuthenticationExtension


class DeviceAuthenticationScheme(OpenApiAuthenticationExtension):
    target_class = "tournaments.authentication.DeviceAuthentication"
    name = "deviceAuth"

    def get_security_definition(self, auto_schema: object) -> dict[str, str]:
        return {
            "type": "apiKey",
            "in": "header",
            "name": "Authorization",
            "description": "A table's code, sent as `Device <code>`.",
        }
