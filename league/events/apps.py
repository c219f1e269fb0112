from django.apps import AppConfig


class EventsConfig(AppConfig):
    """Signed events: an organiser's HTTPS subscriptions to a league's events and
    their deliveries (league/events/emit.py, league/events/delivery.py)."""

    name = "league.events"
    label = "events"
    verbose_name = "Signed events"
    default_auto_field = "django.db.models.BigAutoField"
