"""Dungeon Bowl's league-play data on top of the teams (imported by ``models``):
the league's settings (DB-4, DB-5b, DB-6, DB-11, DB-15), a team's place in a
season, what a game report says (DB-9, DB-10, DB-13) and what approving it did to
each player, so a correction reverses exactly that.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q

from league.dungeonbowl.teams import player_rules, rules as team_rules
from league.dungeonbowl.postgame import rules as postgame_rules
from league.dungeonbowl.redraft import rules as redraft_rules
from league.dungeonbowl.models.teams import MAX_GP, Player, Team
from league.dungeonbowl.units import gp

MAX_TD = 9  # a Dungeon Bowl game ends on its first touchdown; a bound against typos
MAX_SPP_VALUE = 10
MAX_PER_PLAYER = 20  # completions, casualties ... by one player in one game
SPP_FIELDS = ("completion", "deflection", "interception", "casualty", "touchdown", "mvp")
COUNTS = ("touchdowns", "completions", "deflections", "interceptions", "casualties")


class DungeonBowlSettings(models.Model):
    """A league's options with the rulebook's defaults."""

    class Playoffs(models.IntegerChoices):
        NONE = 0, "No play-offs"
        ONE = 1, "One division: top 4 play semi-finals"
        TWO = 2, "Two divisions: top 2 of each"
        THREE = 3, "Three divisions: winners and the best second"
        FOUR = 4, "Four divisions: the four winners"

    league = models.OneToOneField("league.League", on_delete=models.CASCADE, related_name="dungeonbowl_settings")
    draft_budget = models.PositiveIntegerField(default=team_rules.DEFAULT_DRAFT_BUDGET,
                                               help_text="DB-6: gp to draft a team with.")
    casualty_bonus = models.BooleanField(
        "casualty bonus point", default=False, help_text="DB-4: +1 League point for causing 3+ casualties that earn SPP."
    )
    playoffs = models.PositiveSmallIntegerField(choices=Playoffs.choices, default=Playoffs.NONE, help_text="DB-5b")
    redraft_cap = models.BooleanField(default=False, help_text=f"DB-15: cap Re-Draft Budgets at {gp(redraft_rules.REDRAFT_CAP)}.")
    head_to_head_first = models.BooleanField(
        "head-to-head first", default=False,
        help_text="DB-5a: a house rule. Among teams level on League Points, the League Points they earned in their "
                  "games against each other decide first, then the rulebook's order.",
    )
    spp_completion = models.PositiveSmallIntegerField("SPP per completion", default=1)
    spp_deflection = models.PositiveSmallIntegerField("SPP per deflection", default=1)
    spp_interception = models.PositiveSmallIntegerField("SPP per interception", default=2)
    spp_casualty = models.PositiveSmallIntegerField("SPP per casualty", default=2)
    spp_touchdown = models.PositiveSmallIntegerField("SPP per touchdown", default=3)
    spp_mvp = models.PositiveSmallIntegerField("SPP per MVP award", default=4)

    SPP_FIELDS = SPP_FIELDS

    class Meta:
        verbose_name = verbose_name_plural = "Dungeon Bowl settings"
        constraints = [
            models.CheckConstraint(
                condition=Q(draft_budget__gte=100_000, draft_budget__lte=MAX_GP), name="dbsettings_draft_budget_in_range"
            ),
            models.CheckConstraint(condition=Q(playoffs__gte=0, playoffs__lte=4), name="dbsettings_playoffs_0_to_4"),
            *(
                models.CheckConstraint(
                    condition=Q(**{f"spp_{name}__lte": MAX_SPP_VALUE}), name=f"dbsettings_spp_{name}_in_range"
                )
                for name in SPP_FIELDS
            ),
        ]

    def __str__(self) -> str:
        bonus = ", +1 LP for 3+ casualties" if self.casualty_bonus else ""
        return f"draft budget {gp(self.draft_budget)}{bonus}"

    @property
    def spp_values(self) -> postgame_rules.SppValues:
        return postgame_rules.SppValues(**{name: getattr(self, f"spp_{name}") for name in self.SPP_FIELDS})


class TeamSeason(models.Model):
    """A team's place in a season: the engine's Entry (whose ``team`` is the team's
    name) linked to the Dungeon Bowl team it stands for."""

    team = models.ForeignKey(Team, on_delete=models.CASCADE, related_name="seasons")
    entry = models.OneToOneField("league.Entry", on_delete=models.CASCADE, related_name="dungeonbowl")

    class Meta:
        constraints = [models.UniqueConstraint(fields=["team", "entry"], name="dbteamseason_unique")]

    def __str__(self) -> str:
        return f"{self.team} in {self.entry.season}"


class Ending(models.TextChoices):
    """How a game ended (DB-5, DB-5a)."""

    TOUCHDOWN = "touchdown", "a touchdown"
    HOME_CLOSER = "home_closer", "time limit: the home team had the ball closer"
    AWAY_CLOSER = "away_closer", "time limit: the away team had the ball closer"
    DRAW = "draw", "time limit: equal distances (a draw)"
    HOME_CONCEDED = "home_conceded", "the home team conceded"
    AWAY_CONCEDED = "away_conceded", "the away team conceded"
    UNPLAYED = "unplayed", "not played by the deadline"


class GameReport(models.Model):
    """A Dungeon Bowl result's own facts; touchdowns are the Result's scores. The
    casualty totals are the sums of the players' lines, stored for the standings'
    single query."""

    result = models.OneToOneField("league.Result", on_delete=models.CASCADE, related_name="dungeonbowl_report")
    ending = models.CharField(max_length=15, choices=Ending.choices)
    home_cas = models.PositiveSmallIntegerField(default=0)
    away_cas = models.PositiveSmallIntegerField(default=0)
    home_gather = models.PositiveSmallIntegerField(default=0, help_text="DB-10: players who used Gather Funds.")
    away_gather = models.PositiveSmallIntegerField(default=0)
    home_journeymen = models.PositiveSmallIntegerField(default=0)
    away_journeymen = models.PositiveSmallIntegerField(default=0)
    dice = models.JSONField(null=True, blank=True, help_text="DB-16: winnings dice rolled at the table, if any.")
    home_wizard = models.BooleanField(default=False, help_text="DB-6: hired its College Wizard for this game.")
    away_wizard = models.BooleanField(default=False, help_text="DB-6: hired its College Wizard for this game.")

    class Meta:
        constraints = [
            models.CheckConstraint(condition=Q(ending__in=Ending.values), name="dbreport_ending_valid"),
            *(
                models.CheckConstraint(condition=Q(**{f"{side}_{name}__lte": limit}), name=f"dbreport_{side}_{name}_in_range")
                for side in ("home", "away")
                for name, limit in (("cas", 16 * MAX_PER_PLAYER), ("gather", team_rules.MAX_PLAYERS),
                                    ("journeymen", team_rules.MAX_PLAYERS))
            ),
        ]

    def __str__(self) -> str:
        return f"{self.result}: {self.get_ending_display()}"


class Injury(models.TextChoices):
    NONE = "", "—"
    BADLY_HURT = "badly_hurt", "Badly Hurt"
    SERIOUSLY_HURT = "seriously_hurt", "Seriously Hurt"
    SERIOUS_INJURY = "serious_injury", "Serious Injury"
    LASTING_INJURY = "lasting_injury", "Lasting Injury"
    DEAD = "dead", "Dead"


class Characteristic(models.TextChoices):
    NONE = "", "—"
    MA = "ma", "MA"
    ST = "st", "ST"
    AG = "ag", "AG"
    PA = "pa", "PA"
    AV = "av", "AV"


class PlayerGame(models.Model):
    """What one player did in one reported game (DB-9, DB-11, DB-13)."""

    report = models.ForeignKey(GameReport, on_delete=models.CASCADE, related_name="players")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="games")
    side = models.CharField(max_length=4, choices=[("home", "home"), ("away", "away")])
    touchdowns = models.PositiveSmallIntegerField(default=0)
    completions = models.PositiveSmallIntegerField(default=0)
    deflections = models.PositiveSmallIntegerField(default=0)
    interceptions = models.PositiveSmallIntegerField(default=0)
    casualties = models.PositiveSmallIntegerField("SPP casualties caused", default=0)
    mvp = models.BooleanField("MVP", default=False)
    injury = models.CharField(max_length=15, choices=Injury.choices, blank=True)
    lasting = models.CharField("characteristic lost", max_length=2, choices=Characteristic.choices, blank=True)

    COUNTS = COUNTS

    class Meta:
        ordering = ["report", "side", "player__number"]
        constraints = [
            models.UniqueConstraint(fields=["report", "player"], name="dbplayergame_once_per_report"),
            models.CheckConstraint(condition=Q(side__in=["home", "away"]), name="dbplayergame_side_valid"),
            models.CheckConstraint(condition=Q(injury__in=Injury.values), name="dbplayergame_injury_valid"),
            models.CheckConstraint(
                condition=Q(lasting="") | Q(injury="lasting_injury", lasting__in=["ma", "st", "ag", "pa", "av"]),
                name="dbplayergame_lasting_names_characteristic",
            ),
            *(
                models.CheckConstraint(condition=Q(**{f"{name}__lte": MAX_PER_PLAYER}), name=f"dbplayergame_{name}_in_range")
                for name in COUNTS
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.report.result.fixture}"

    @property
    def events(self) -> postgame_rules.GameEvents:
        return postgame_rules.GameEvents(
            self.completions, self.deflections, self.interceptions, self.casualties, self.touchdowns, self.mvp
        )


class PlayerEffect(models.Model):
    """What approving a result did to one player, so withdrawing it undoes exactly
    that (SPP and MVP at the values of the day, the injury's effects, a recovery
    from Miss Next Game). Deleted when undone; the report keeps what happened."""

    result = models.ForeignKey("league.Result", on_delete=models.CASCADE, related_name="dungeonbowl_effects")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="effects")
    spp = models.PositiveSmallIntegerField(default=0)
    mvp = models.BooleanField(default=False)
    niggling = models.BooleanField(default=False)
    reduced = models.CharField(max_length=2, choices=Characteristic.choices, blank=True)
    miss_next_game = models.BooleanField(default=False, help_text="DB-13: set by this game's injury.")
    recovered = models.BooleanField(default=False, help_text="Missed this game, so Miss Next Game was cleared.")
    died = models.BooleanField(default=False)
    note = models.CharField(max_length=200, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["result", "player"], name="dbeffect_once_per_result"),
            models.CheckConstraint(condition=Q(spp__lte=500), name="dbeffect_spp_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.note or self.spp}"


class PlayerAdvancement(models.Model):
    """One advancement a player bought with SPP (DB-11): what it was, what it cost
    and what it added to the player's value, so a player's profile can be explained
    line by line."""

    KINDS = [(k.value, k.value.replace("_", " ")) for k in player_rules.Advancement]

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="advancement_lines")
    number = models.PositiveSmallIntegerField(help_text="The player's n-th advancement, 1 to 6.")
    kind = models.CharField(max_length=20, choices=KINDS)
    category = models.CharField(max_length=1, blank=True, help_text="G, A, S, P or M for a skill.")
    skill = models.CharField(max_length=40, blank=True)
    characteristic = models.CharField(max_length=2, choices=Characteristic.choices, blank=True)
    spp_cost = models.PositiveSmallIntegerField()
    value_increase = models.PositiveIntegerField()
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["player", "number"]
        constraints = [
            models.UniqueConstraint(fields=["player", "number"], name="dbadvancement_number_unique"),
            models.CheckConstraint(condition=Q(number__gte=1, number__lte=player_rules.MAX_ADVANCEMENTS),
                                   name="dbadvancement_number_1_to_6"),
            models.CheckConstraint(condition=Q(kind__in=[k.value for k in player_rules.Advancement]),
                                   name="dbadvancement_kind_valid"),
            models.CheckConstraint(condition=Q(spp_cost__gte=1, spp_cost__lte=50), name="dbadvancement_spp_cost_in_range"),
            models.CheckConstraint(condition=Q(value_increase__lte=80_000), name="dbadvancement_value_in_range"),
            models.CheckConstraint(
                condition=(Q(kind="characteristic") & ~Q(characteristic="") & Q(skill=""))
                | (~Q(kind="characteristic") & Q(characteristic="") & ~Q(skill="")),
                name="dbadvancement_skill_or_characteristic",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.player}: {self.skill or self.characteristic.upper()} ({self.spp_cost} SPP)"


class Placing(models.IntegerChoices):
    """DB-14: the season's placings that earn a prize."""

    CHAMPION = 1, "Champion"
    RUNNER_UP = 2, "Runner-up"
    THIRD = 3, "Third place"


class Honour(models.Model):
    """DB-14: a team's placing in a finished season, fixed once the final and the
    match for third place are approved. The champion's row is the Trophy: the
    newest champion of a league holds it until the next season's is crowned. A
    season with its champion row is over: its off-season (DB-15) has begun."""

    Placing = Placing

    season = models.ForeignKey("league.Season", on_delete=models.CASCADE, related_name="dungeonbowl_honours")
    team = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="honours")
    placing = models.PositiveSmallIntegerField(choices=Placing.choices)
    prize = models.PositiveIntegerField(help_text="gp paid into the Treasury (DB-14).")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["season", "placing"]
        constraints = [
            models.UniqueConstraint(fields=["season", "placing"], name="dbhonour_one_team_per_placing"),
            models.UniqueConstraint(fields=["season", "team"], name="dbhonour_one_placing_per_team"),
            models.CheckConstraint(condition=Q(placing__gte=1, placing__lte=3), name="dbhonour_placing_1_to_3"),
            models.CheckConstraint(condition=Q(prize__lte=MAX_GP), name="dbhonour_prize_in_range"),
        ]

    def __str__(self) -> str:
        return f"{self.team}: {self.get_placing_display()} of {self.season}"
