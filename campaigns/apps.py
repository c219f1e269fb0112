from django.apps import AppConfig


class CampaignsConfig(AppConfig):
    name = "campaigns"
    verbose_name = "The Big League campaigns"

    def ready(self) -> None:
        from campaigns import services
        from league import layers

        layers.register(
            layers.Layer(
                name="The Big League",
                game_systems=frozenset({"guildball"}),
                result_approved=services.on_result_approved,
                result_withdrawn=services.on_result_withdrawn,
            )
        )
