from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Turniere"

    def ready(self) -> None:
        # the failed-login receiver, the OpenAPI auth extension
        from tournaments.access import lockout, schema  # noqa: F401
