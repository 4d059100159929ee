"""The browser fixtures of the web tests (Debian's Chromium), for the privacy tests."""

from tests.web.conftest import browser, context, page

__all__ = ["browser", "context", "page"]
