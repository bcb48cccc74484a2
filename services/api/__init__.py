"""The Starlette app: REST routes, auth, errors, settings, health, metrics; mounts GraphQL."""
