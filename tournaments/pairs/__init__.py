"""Fixed pairs and finals: pair formats (pure), their services, API and serializers."""
