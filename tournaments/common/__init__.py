"""What every sub-domain of the platform shares: the application errors with their codes,
validators, permissions, authentication, throttles, list filters, the sign-in lockout,
the OpenAPI schema and the admin's base classes."""
