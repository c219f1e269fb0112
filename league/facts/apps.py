from django.apps import AppConfig


class FactsConfig(AppConfig):
    """What happened (one ``Fact`` row a write that has no history row of its own)
    and the followers of each kind of fact (league/facts/registry.py)."""

    name = "league.facts"
    label = "facts"
    verbose_name = "Facts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Imported here, as Django requires: the engine's followers read models,
        # which exist only once the apps are ready. Registering them fills the
        # registry before any write records a fact.
        from league.facts import subscriptions

        subscriptions.register()
