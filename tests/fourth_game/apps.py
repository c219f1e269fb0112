from django.apps import AppConfig


class RingballConfig(AppConfig):
    name = "tests.fourth_game"
    label = "fourth_game"
    verbose_name = "Ringball (a test game)"

    def ready(self) -> None:
        from league import rules
        from league.rules import rulebook
        from tests.fourth_game.rulebook import SECTION
        from tests.fourth_game.rules import RingballRules

        rules.register(RingballRules)
        rulebook.register(SECTION)
