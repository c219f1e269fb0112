"""The Big League catalogue (RULES.md section 1, Catalogue; GB-12; GB-21).

Names, rewards and thresholds are facts from the rulebook; each summary says in our
own words what achieves the card. The organiser can edit all of it in the admin.
Rewards are (CP, Favours); (0, 0) is an in-game effect only.
"""

from django.db import migrations

GUILDS = [
    "Alchemist's", "Brewer's", "Butcher's", "Engineer's", "Fisherman's",
    "Hunter's", "Mason's", "Mortician's", "The Union",
]

CORE = [  # Season Two core Guild Plots: in every pool, no CP (GB-15)
    ("Immediate Response", "The enemy scores or takes out one of yours: your team gains momentum."),
    ("Steamroller", "A charging model picks armour-piercing or an extra shove for the attack."),
    ("Give as Good as You Get!", "A counter-attacking model hits more accurately."),
    ("Too Flash", "Tag an enemy that used teamwork; charging it later costs less influence."),
    ("Husbandry", "Your taken-out mascot returns next turn on 1 HP."),
    ("Damage Sponge", "A model under attack defends a little better for that attack."),
    ("Get it Back!", "Lose the ball to a tackle and gain a point of momentum."),
    ("Nuts!", "A model struck by a parting blow ignores the next tackle this turn."),
    ("Home Crowd", "Losing the initiative roll and going second earns a point of momentum."),
    ("One Touch Football", "A model that receives a pass may pass on at once for free."),
    ("Tracking Back", "A model near your own goal makes enemy shots harder."),
    ("Tap In", "A shot from close to the enemy goal is easier."),
]

COMMON = [  # Common Campaign Plots: in every pool (GB-15)
    ("The Beautiful Game", 10, 0, "Win without taking out a single enemy model."),
    ("Winning Ugly", 10, 0, "Win without scoring any goal."),
    ("Defensive Drills", 5, 0, "One of your models takes a Defensive Stance."),
    ("Double Down", 10, 0, "Take out the same enemy model twice in one game."),
    ("One with the Left, One with the Right", 5, 0, "A single model of yours scores two goals in one game."),
    ("Two Footed Tackle", 5, 0, "One of your models takes out two different enemies in one game."),
    ("Starting from the Back", 5, 0, "One model tackles and then passes in the same activation."),
    ("One for the Crowd", 5, 0, "One of your models scores with a Snap Shot."),
    ("Statement of Intent", 5, 0, "One of your models uses a Heroic or Legendary Play."),
    ("It's Unbelievable Geoff!", 10, 0, "Your mascot scores or takes out an enemy."),
]

RARES = [  # Season Two Rare Campaign Plots
    ("Homework Done", 15, 1, "Mark an enemy before kick-off, then take it out with the boosted attack on it."),
    ("Blind Eye", 0, 0, "A taken-out model is swapped for a fresh one from your roster."),
    ("Poisoned Chalice", 25, 1, "A model you have on loan gets taken out."),
    ("Jumping the Whistle", 0, 0, "Every model of yours gets a short free dodge."),
    ("He Did What!?", 10, 1, "A second model of yours activates straight after the first."),
    ("From the Half Way Line", 10, 0, "One model kicks further and more accurately this turn."),
]

# Guild campaign plots: (name, CP, Favours, rare, summary)
GUILD_CARDS = {
    "Alchemist's": [
        ("Hidden Knowledge", 5, 0, False, "Once plots are chosen, look at one random card in the opponent's hand."),
        ("Lead to Gold", 0, 1, False, "End a turn with more momentum than the opponent; one AOE lingers."),
        ("Mixology", 10, 0, False, "An enemy model carries two different conditions at once."),
        ("Smoke and Mirrors", 10, 0, False, "After an enemy attacks one of yours, the target slips away."),
        ("Blindingly Obvious", 5, 0, False, "Calculus blinds an enemy; your team gains momentum."),
        ("Checking for Blood", 10, 0, False, "Venin makes an enemy bleed."),
        ("Experimental Mix", 0, 0, True, "An AOE play hits harder and spreads bleeding."),
        ("Recipe for Success", 15, 0, False, "Your team scores twice in the same turn."),
    ],
    "Brewer's": [
        ("Barroom Brawl", 0, 0, True, "With 4 or more momentum, heroic plays cost nothing this turn."),
        ("Off-Kilter", 5, 0, False, "After a failed pass to a team-mate, the intended receiver dodges to the ball."),
        ("Down and Out", 10, 0, False, "Take out an enemy that is lying knocked down."),
        ("Bad Pint", 10, 0, False, "Shove one enemy 6 inches or more within a single activation."),
        ("Over the Line", 15, 0, False, "An enemy is taken out by being forced off the pitch."),
        ("All Fall Down", 0, 0, False, "Shove an enemy into another enemy and floor them both."),
        ("Feeling the Heat", 10, 1, False, "Stoker attacks an enemy that is burning."),
        ("Remembering the Old Grumpy Cat", 0, 0, False, "Scum away from Tapper gains charging and chasing tricks."),
    ],
    "Butcher's": [
        ("Hangry?", 5, 0, False, "Your mascot damages a Human or Animal and attacks again for free."),
        ("Slick with Blood", 10, 0, False, "An enemy is taken out and leaves fast ground where it fell."),
        ("Bone Crunching Tackle", 5, 0, False, "Hurt the ball carrier: it falls and the ball bounces twice as far."),
        ("In Erskirii, The Hook Suffer You", 0, 0, False, "Meathook charges and reaches further for the turn."),
        ("Bloodbath", 0, 0, True, "A model that takes out an enemy goes berserk for the turn."),
        ("Leaving the Boot In...", 5, 1, False, "A successful tackle earns a free follow-up attack."),
        ("Ye Olde Pain Train", 0, 0, False, "Boar starts engaged and gets a second activation."),
        ("Tough Meat", 15, 0, False, "Take out both the enemy captain and the enemy mascot in one game."),
    ],
    "Engineer's": [
        ("Transmission", 0, 0, True, "A Guild model receiving a pass gains influence and activates again."),
        ("Spring-Loaded", 10, 0, False, "A Mechanica model attacks with a TAC bonus."),
        ("Creation/Destruction", 10, 0, False, "A taken-out Mechanica model returns to the pitch."),
        ("Synchronicity", 15, 0, False, "A Mechanica model snap-shoots from another Mechanica's pass."),
        ("Bolt Action", 0, 0, False, "Repeat a damaging character play at no influence cost."),
        ("All About the Base", 5, 0, False, "Colossus receives a pass and resists being knocked down."),
        ("Tickets to the Gun Show", 5, 1, False, "Ratchet uses Blast Earth twice in one turn."),
        ("Mokojin", 0, 0, False, "Hoist's copied play hits and refunds its cost as momentum."),
    ],
    "Fisherman's": [
        ("Sea Breeze", 5, 0, False, "A model dodges twice in one activation, then once more."),
        ("Catch of the Day", 0, 0, False, "The receiver of a pass may pay momentum to pass on at once."),
        ("Baiting Up", 10, 1, False, "Finish an activation holding the ball while engaged by an enemy."),
        ("Chumming the Water", 15, 0, False, "A model with fewer than 8 HP left scores."),
        ("Showboating", 10, 0, False, "Score while touching the goal-post; gain extra momentum."),
        ("Popular", 0, 0, False, "Salt scores, then dodges clear with better DEF."),
        ("Slippery Fish", 0, 0, False, "An influenced Angel can escape being taken out once."),
        ("Captain on Deck!", 0, 0, True, "With 3 or more momentum, re-roll missed kicks this turn."),
    ],
    "Hunter's": [
        ("Signal Flare", 0, 0, True, "Your captain's play on a friend lets plays on enemies earn momentum."),
        ("Favour of the Sun Father", 10, 1, False, "Four enemy models are snared at the same time."),
        ("Hit the Mark", 15, 0, False, "Hit an enemy model with a character play."),
        ("Swift as Shadows", 5, 0, False, "The receiver of a pass uses Pass'n'Move without momentum."),
        ("Bear Foot Training", 10, 0, False, "Tackle an enemy, then pass for free in that activation."),
        ("Rascally Rabbit", 10, 0, False, "Take out the enemy mascot."),
        ("Traps, Traps Everywhere!", 10, 0, False, "Chaska lays two traps instead of one this turn."),
        ("And His Name Is...", 0, 0, False, "Seenah takes out an enemy and gets more influence next turn."),
    ],
    "Mason's": [
        ("Bonded", 5, 0, False, "Hand a leftover point of influence to a nearby team-mate."),
        ("Building Play", 5, 0, False, "Target a team-mate with a character play; gain momentum."),
        ("Laying the Foundation", 10, 0, False, "Complete a pass from one model of yours to another."),
        ("Hunker Down", 5, 1, False, "An enemy targets one of yours with a character play."),
        ("Rock of Ages", 10, 0, False, "A model catches its breath and shrugs off the next push."),
        ("Distant Friends", 0, 0, False, "Tower's protective aura reaches further this turn."),
        ("Sister Act", 0, 0, False, "Masons gang up on enemies that Harmony engages."),
        ("Solid Foundations", 0, 0, True, "Two Masons beside your captain: all three gain ARM next turn."),
    ],
    "Mortician's": [
        ("Delaying the Inevitable", 0, 0, True, "Win the next initiative roll without rolling."),
        ("Shroud", 10, 0, False, "A model gains ARM against a parting blow aimed at it."),
        ("Angry Dead", 10, 0, False, "A model being taken out strikes once more before it leaves."),
        ("Paying Respects", 5, 0, False, "An enemy attack takes one of yours out; the enemy loses momentum."),
        ("Deathly Pallor", 15, 0, False, "Hit an enemy model with a character play."),
        ("Bella Tricks", 0, 0, False, "Cosset is moved to Dirge's side."),
        ("Room for Two", 5, 0, False, "Casket uses Casket Time; its legendary play can be used once more."),
        ("Unsettled Debts", 0, 1, False, "One of yours is taken out; take-down momentum comes to your team."),
    ],
    "The Union": [
        ("Show me the Money!", 10, 1, False, "Sprint and score in the same activation."),
        ("One for the Money", 5, 1, False, "Turn a fresh point of momentum into influence for a model."),
        ("In the Small Print", 15, 0, False, "A model comes back into play with two Icy Sponge tokens."),
        ("Payday", 15, 0, False, "Score 6 or more VP in a single turn."),
        ("Going Rogue", 0, 0, False, "A model far from your captain gets a free point of influence."),
        ("Decimated", 0, 0, False, "Decimate in the enemy half makes her damage cause bleeding."),
        ("Route One", 0, 0, False, "Avarisse passes to a spot and Greede lands next to the ball."),
        ("Bribery and Corruption", 0, 1, True, "An enemy near your captain must wait until your captain has gone."),
    ],
}

SPONSORSHIPS = [  # GB-21
    "+1 TAC and +1 ARM",
    "+1 DEF",
    "+2/+0 INF",
    '+2"/+2" MOV',
    "Re-roll Shots",
    '+0/+4" KICK while making Passes',
    "+2 DEF against Parting Blows",
    '+4" Dodge when Running the Length',
    "+4\" Dodge when Give'n'Go or Pass'n'Move",
]

MOMENTS = [  # GB-12: (threshold, name, unlocks, repeat_every)
    (0, "Plotting", "guild", None),
    (20, "Planning", "guild", None),
    (40, "Opening Gambit", "guild", None),
    (60, "Best Laid Plans", "rare", None),
    (80, "Consolidate", "guild", None),
    (100, "Fully Committed Now", "guild", None),
    (120, "Next Steps", "guild", None),
    (140, "All Coming Together Nicely", "rare", None),
    (160, "No Room For Manoeuvre", "rare", None),
    (180, "Final Day", "rare", None),
    (200, "Driving the Advantage", "rare", 20),
]


def load(apps, schema_editor):
    Guild = apps.get_model("campaigns", "Guild")
    PlotCard = apps.get_model("campaigns", "PlotCard")
    Sponsorship = apps.get_model("campaigns", "Sponsorship")
    Moment = apps.get_model("campaigns", "Moment")
    guilds = {name: Guild.objects.create(name=name) for name in GUILDS}
    cards = [
        PlotCard(name=name, kind="core", summary=summary, order=i) for i, (name, summary) in enumerate(CORE)
    ]
    cards += [
        PlotCard(name=name, kind="common", cp_reward=cp, favour_reward=f, summary=s, order=i)
        for i, (name, cp, f, s) in enumerate(COMMON)
    ]
    cards += [
        PlotCard(name=name, kind="rare", is_rare=True, cp_reward=cp, favour_reward=f, summary=s, order=i)
        for i, (name, cp, f, s) in enumerate(RARES)
    ]
    for guild, rows in GUILD_CARDS.items():
        cards += [
            PlotCard(
                name=name, kind="guild", guild=guilds[guild], is_rare=rare, cp_reward=cp, favour_reward=f,
                summary=s, order=i,
            )
            for i, (name, cp, f, rare, s) in enumerate(rows)
        ]
    PlotCard.objects.bulk_create(cards)
    Sponsorship.objects.bulk_create(Sponsorship(name=name, order=i) for i, name in enumerate(SPONSORSHIPS))
    Moment.objects.bulk_create(
        Moment(threshold=t, name=n, unlocks=u, repeat_every=r) for t, n, u, r in MOMENTS
    )


def unload(apps, schema_editor):
    for model in ("Moment", "Sponsorship", "PlotCard", "Guild"):
        apps.get_model("campaigns", model).objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("campaigns", "0001_initial")]

    operations = [migrations.RunPython(load, unload)]
