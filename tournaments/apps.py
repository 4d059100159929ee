from django.apps import AppConfig


class TournamentsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "tournaments"
    verbose_name = "Turniere"

    def ready(self) -> None:
        from . import schema  # noqa: F401  registers the OpenAPI auth extension
