"""The repair search's settings, shared by today's Python search
(:mod:`solver.backends.repair.repairer`, which says what each step does) and the compiled
one (:mod:`solver.backends.repair.compiled`)."""

#: repairs without a lower cost before a new greedy start
STAGNATION = 1000
#: window side: smallest, largest, first
WINDOW = (4, 12, 6)
#: most pieces one repair frees
MAX_FREED = 10
#: random centres weighed per window repair (the roomiest wins)
CENTRES = 12
#: seconds per exact window repair
REPAIR_TIME = 0.1
#: share of steps that are ejections
EJECT = 0.8
#: placements of the piece weighed per ejection
EJECT_CANDIDATES = 300
#: seconds for putting ejected pieces back
EJECT_TIME = 0.1
#: probability of accepting a step that raises the cost
ACCEPT_WORSE = 0.02
#: may an ejection take off pieces of the piece's own colour
EJECT_OWN = True
#: most pieces put back exactly after an ejection (more: greedy play first)
EXACT_PIECES = 8
#: ejection steps during which a piece may not go back where it was taken off
TABU = 30
