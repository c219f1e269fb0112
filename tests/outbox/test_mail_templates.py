"""Mail words are templates (templates/emails/<kind>-subject.txt, -body-text.txt,
-body-html.html), as healthchecks keeps them; Python builds the context. Every
registered kind has all three, the plain text is not HTML-escaped, the HTML is,
and the texts read as they did when they were f-strings."""

import datetime
from types import SimpleNamespace as Obj

import pytest
from django.core import mail
from django.template.loader import get_template

from campaigns import notices
from campaigns.rules import LOAN_COST, LOAN_TO_LENDER
from league.outbox import notifications

LEAGUE = Obj(name="Midlands Big League")


@pytest.mark.parametrize("kind", notifications.kinds(), ids=lambda kind: kind.key)
def test_every_kind_has_its_three_templates(kind):
    for part in ("subject.txt", "body-text.txt", "body-html.html"):
        get_template(f"emails/{kind.key}-{part}")


def test_the_text_is_not_escaped_and_the_html_is():
    reporter = "Zoë <O'Brien> & co"
    fixture = Obj(title="Round 1", home=reporter, away="Rage", date=datetime.date(2025, 1, 1))
    result = Obj(summary="12 – 6", get_outcome_display="Home win")
    subject, text, html = notifications.render(
        notifications.RESULT_REPORTED, {"result": result, "fixture": fixture, "league": LEAGUE, "reporter": reporter}, "/f/1/"
    )
    assert subject == f"[Midlands Big League] {reporter} reported {reporter} v Rage: please confirm"
    assert text == (
        f"Midlands Big League, Round 1: {reporter} v Rage\n{reporter} reported: 12 – 6.\n"
        "Confirm it if it is right, or dispute it with the score you think is right.\n\nhttp://localhost/f/1/\n"
    )
    assert "Zoë &lt;O&#x27;Brien&gt; &amp; co" in html and reporter not in html
    assert '<a href="http://localhost/f/1/">' in html and "<title>[Midlands Big League] Zoë &lt;O&#x27;Brien" in html


@pytest.mark.django_db
def test_a_message_carries_both_bodies(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        notifications.send(
            notifications.RESULT_APPROVED, [notifications.Recipient("a@example.com", None)],
            context={"result": Obj(summary="3 – 1", get_outcome_display="Home win"), "fixture": Obj(title="R1", home="A", away="B"),
                     "league": LEAGUE, "corrected": True},
            link="/f/2/",
        )
    (message,) = mail.outbox
    assert message.subject == "[Midlands Big League] A v B corrected by the organiser"
    assert message.body == "Midlands Big League, R1: A v B\nThe result is corrected by the organiser: 3 – 1.\n\nhttp://localhost/f/2/\n"
    (html, mimetype), = message.alternatives
    assert mimetype == "text/html" and "<strong>3 – 1</strong>" in html


def test_a_rearranged_fixture_reads_as_before():
    fixture = Obj(title="Round 2", home="Velocity", away="Rage", date=datetime.date(2025, 3, 8))
    subject, text, _ = notifications.render(
        notifications.FIXTURE_REARRANGED,
        {"fixture": fixture, "season": Obj(name="Season 1"), "league": LEAGUE,
         "old_date": datetime.date(2025, 3, 1), "reason": "venue closed"},
    )
    assert subject == f"[Midlands Big League] Velocity v Rage moved to {fixture.date:%a %d %b %Y}"
    assert text == (
        "The organiser has rearranged a fixture in Midlands Big League (Season 1).\n\n"
        "Round 2: Velocity v Rage\nWas: Saturday 01 March 2025\nNow: Saturday 08 March 2025\nReason: venue closed\n"
    )


def test_the_big_leagues_loan_and_offer_read_as_before():
    loan = Obj(model_name="Brisket", get_model_type_display="Squaddie", status="accepted")
    subject, text, _ = notifications.render(
        notices.LOAN_REQUESTED,
        {"league": LEAGUE, "loan": loan, "borrower": "Ann", "loan_cost": LOAN_COST, "loan_to_lender": LOAN_TO_LENDER},
    )
    assert subject == "[Midlands Big League] The Big League: Ann asks to borrow Brisket"
    assert text == (
        f"Ann asks to borrow Brisket (Squaddie) for their next League Match, for {LOAN_COST} Favours "
        f"({LOAN_TO_LENDER} to you). Accept or refuse it on your campaign page.\n"
    )
    for favours, what in ((1, "1 Favour"), (3, "3 Favours")):
        offer = Obj(favours=favours, wanted=Obj(card="Lucky Break"))
        subject, text, _ = notifications.render(
            notices.OFFER_MADE, {"league": LEAGUE, "offer": offer, "proposer": "Bo", "purchase": True}
        )
        assert subject == f"[Midlands Big League] The Big League: Bo offers {what} for one of your cards"
        assert text == f"Bo offers {what} for Lucky Break. Accept or refuse it on your campaign page.\n"
    subject, _, _ = notifications.render(notices.OFFER_MADE, {"league": LEAGUE, "offer": offer, "proposer": "Bo", "purchase": False})
    assert subject.endswith("Bo offers a swap for one of your cards")
    unlocks = [Obj(name="First Blood", threshold=5), Obj(name="Veteran", threshold=10)]
    subject, text, _ = notifications.render(notices.MOMENT_TO_CONFIRM, {"league": LEAGUE, "coach": "Cy", "unlocks": unlocks})
    assert subject == "[Midlands Big League] The Big League: Cy reached First Blood (5 CP), Veteran (10 CP)"
    assert text.startswith("Cy has reached First Blood (5 CP), Veteran (10 CP). Confirm it from the organiser's dashboard")
