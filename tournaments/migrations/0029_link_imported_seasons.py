# The evenings imported before imports made seasons: linked to their seasons in a
# migration of its own (going back, the seasons are deleted in their own transaction,
# before 0028 drops the columns).

from django.db import migrations


def _key(name):
    """As ``history.parsing.name_key``: case and spacing do not matter."""
    return " ".join(name.split()).casefold()


def link_imported_seasons(apps, schema_editor):
    """Evenings imported before seasons were: each named season counts into the club's
    season of that name, or one is created (spanning its evenings) by the oldest import
    that names it, as an import does now."""
    Season = apps.get_model("tournaments", "Season")
    ImportedEvening = apps.get_model("tournaments", "ImportedEvening")
    evenings = (
        ImportedEvening.objects.exclude(season="")
        .select_related("batch")
        .order_by("batch__created", "batch_id")
    )
    seasons = {}
    for evening in evenings:
        key = (evening.club_id, _key(evening.season))
        if key not in seasons:
            known = Season.objects.filter(club_id=evening.club_id).order_by("pk")
            found = next((s for s in known if _key(s.name) == key[1]), None)
            if found is None:
                days = [e.date for e in evenings if (e.club_id, _key(e.season)) == key]
                found = Season.objects.create(
                    club_id=evening.club_id,
                    name=" ".join(evening.season.split()),
                    starts_on=min(days),
                    ends_on=max(days),
                )
                evening.batch.created_seasons.add(found)
            seasons[key] = found
        evening.club_season = seasons[key]
        evening.save(update_fields=["club_season"])


def unlink_imported_seasons(apps, schema_editor):
    """Back: the seasons imports created go (unless a tournament was put into one)."""
    Season = apps.get_model("tournaments", "Season")
    created = Season.objects.filter(history_imports__isnull=False, tournaments__isnull=True)
    Season.objects.filter(pk__in=list(created.values_list("pk", flat=True))).delete()


class Migration(migrations.Migration):
    dependencies = [
        ("tournaments", "0028_imported_seasons"),
    ]

    operations = [
        migrations.RunPython(link_imported_seasons, unlink_imported_seasons),
    ]
