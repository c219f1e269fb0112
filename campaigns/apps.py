from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "The Big League campaigns"

    def ready(self) -> None:
        # The engine reads its layers from one explicit list (league.layers); the
        # Big League adds itself to it here.
        from campaigns.layer import LAYER
        from league import layers

        layers.register(LAYER)
