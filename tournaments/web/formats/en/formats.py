"""English dates as a German club's English readers expect them: British, day first
(23/11/2026, 24-hour clock), not Django's US defaults (11/23/2026). Used when
``FORMAT_MODULE_PATH`` names ``tournaments.web.formats``."""

from django.conf.locale.en_GB.formats import *  # noqa: F403

TIME_FORMAT = "H:i"
DATETIME_FORMAT = "j M Y, H:i"
SHORT_DATETIME_FORMAT = "d/m/Y H:i"
