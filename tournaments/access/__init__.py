"""Who is asking and how often: the API's authentication (table devices' codes, organisers'
tokens), the sign-in views and their lockout, the throttles, and the OpenAPI schema's
description of the callers. Above the clubs (tokens) and the events (devices); what a
caller may do is each sub-package's ``permissions.py``."""
