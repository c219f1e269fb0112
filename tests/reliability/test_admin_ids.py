"""A bad request is a 4xx, never a 500: ids beyond 64 bits. URL ids already 404
(the ``<id:>`` converter); an admin action whose selection holds one reached the
ORM (SQLite: OverflowError, a 500). Now it is refused with a message, for every
admin with actions, and nothing changes."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from league.models import Coach

pytestmark = pytest.mark.django_db
BIG = "99999999999999999999999"


@pytest.mark.parametrize(
    "changelist,action",
    [
        ("admin:league_coach_changelist", "invite"),
        ("admin:league_coach_changelist", "delete_selected"),
        ("admin:league_fixture_changelist", "delete_selected"),
        ("admin:campaigns_plotcard_changelist", "delete_selected"),
        ("admin:dungeonbowl_college_changelist", "delete_selected"),
    ],
)
def test_an_action_on_an_id_beyond_64_bits_is_refused(client, changelist, action):
    admin_user = get_user_model().objects.create_superuser("root", "root@example.com", "x")
    coach = Coach.objects.create(name="Kept", created_by=admin_user)
    client.force_login(admin_user)
    response = client.post(reverse(changelist), {"action": action, "_selected_action": [BIG, str(coach.pk)]}, follow=True)
    assert response.status_code == 200
    assert "not an item of this list" in response.content.decode()
    assert Coach.objects.filter(pk=coach.pk).exists()


@pytest.mark.parametrize("value,ok", [("1", True), ("9223372036854775807", True), ("9223372036854775808", False),
                                      ("0", False), ("-1", False), ("1e3", False), ("９", False), (BIG, False)])
def test_is_id(value, ok):
    from league.admin.scoping import is_id

    assert is_id(value) is ok
