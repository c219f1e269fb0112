"""An id beyond 64 bits in a form is an unknown choice, not a 500 (SQLite
raises OverflowError on it)."""

import pytest

from league.web.idfields import IdChoiceField, IdsChoiceField
from league.models import Coach

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("value", [str(2**63), str(-(2**63) - 1), "9" * 40])
def test_an_id_past_64_bits_is_an_unknown_choice(value):
    one = IdChoiceField(queryset=Coach.objects.all())
    many = IdsChoiceField(queryset=Coach.objects.all())
    with pytest.raises(Exception) as single:
        one.clean(value)
    with pytest.raises(Exception) as several:
        many.clean([value])
    assert single.type.__name__ == several.type.__name__ == "ValidationError"


def test_a_real_id_still_chooses_its_row():
    coach = Coach.objects.create(name="Ada")
    assert IdChoiceField(queryset=Coach.objects.all()).clean(str(coach.pk)) == coach
    assert list(IdsChoiceField(queryset=Coach.objects.all()).clean([str(coach.pk)])) == [coach]
