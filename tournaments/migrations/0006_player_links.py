"""Players' personal links: a random token per registration (existing rows get one each)
and the tournament setting that lets players check themselves in there."""

import secrets

from django.db import migrations, models

import tournaments.models


def fill_tokens(apps, schema_editor):  # noqa: ANN001 - migration signature
    Registration = apps.get_model("tournaments", "Registration")
    for registration in Registration.objects.filter(link_token__isnull=True).only("pk"):
        registration.link_token = secrets.token_urlsafe(16)
        registration.save(update_fields=["link_token"])


class Migration(migrations.Migration):
    dependencies = [("tournaments", "0005_merge_0003_league_of_clubs_0004_device_contact")]

    operations = [
        migrations.AddField(
            model_name="tournament",
            name="self_check_in",
            field=models.BooleanField(default=False),
        ),
        migrations.AddField(
            model_name="registration",
            name="link_token",
            field=models.CharField(max_length=32, null=True),
        ),
        migrations.RunPython(fill_tokens, migrations.RunPython.noop),
        migrations.AlterField(
            model_name="registration",
            name="link_token",
            field=models.CharField(
                default=tournaments.models.new_link_token, max_length=32, unique=True
            ),
        ),
    ]
