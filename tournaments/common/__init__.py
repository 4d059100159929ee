"""The leaves every sub-domain shares and that import no sub-package: the application
errors with their codes, the validators, the engine's messages in the reader's words and
the API's content negotiation."""
