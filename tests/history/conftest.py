"""The browser fixtures of the web tests (Debian's Chromium through Playwright)."""

from tests.web.conftest import browser, contexts  # noqa: F401
