"""The game service with no transport: creating games, moving, resigning, reading,
seats and tokens, visibility, clocks, bots' turns, scoring and webhooks. The REST door
(`services.api`), the GraphQL door (`schema`) and the Celery door (`workers`) all use it
through one `build_service(settings)` (`services.gameplay.build`)."""
