"""What happened: one fact a write, and who subscribes to each kind of fact.

A service records what it did (``recording.record``, or ``recording.result_step``
for a step of a match's result, whose history row is the fact) in its own
transaction; recording calls the followers registered for that kind
(``registry``): mail, the league's webhooks, signed events, the ratings. A
service never calls a follower itself. docs/architecture.md, "Where things
happen", says how a write's followers work.
"""
