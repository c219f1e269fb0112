"""league/text/words.py: counts, possessives and gold written one way everywhere."""

from league.templatetags.site_tags import gp, pluralise
from league.text.words import plural, possessive


def test_words():
    assert [plural(n, "player") for n in (0, 1, 2)] == ["0 players", "1 player", "2 players"]
    assert plural(1, "injury", "injuries") == "1 injury" and plural(2, "injury", "injuries") == "2 injuries"
    assert possessive("Forge Wardens") == "Forge Wardens'" and possessive("Ember Anvil") == "Ember Anvil's"


def test_template_filters():
    assert gp(590_000) == "590,000 gp" and gp(-20_000, "+") == "-20,000 gp" and gp(345_000, "+") == "+345,000 gp"
    assert gp(None) == "" and pluralise(1, "player") == "1 player" and pluralise(2, "injury,injuries") == "2 injuries"
