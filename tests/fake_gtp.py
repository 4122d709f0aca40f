"""A tiny fake GTP engine for the fault cases of the engine API and ``match``
(tests/test_gtp_control.py): it answers the set-up commands as an engine would, and
``genmove`` as its first argument says:

- ``illegal``: ``a1`` (not on the colour's start square on an empty board);
- ``garbage``: ``z99,q0`` (no squares of the board);
- ``pass``: ``pass`` (while the colour has legal moves);
- ``hang``: never answers;
- ``crash``: ends without answering;
- ``fail``: ``? no move today``;
- ``resign``: ``resign``.
- ``nogame``: answers ``set_game`` with ``? unknown game``.

A second argument is the first ``genmove``'s answer (``j5``: orange's monomino on its
start square in Duo), so that a game gets under way before the fault.
"""

import sys
import time

mode = sys.argv[1]
first = sys.argv[2] if len(sys.argv) > 2 else None
asked = 0
for line in sys.stdin:
    words = line.split()
    if not words:
        continue
    name = words[0]
    if name == "quit":
        print("= \n", flush=True)
        break
    if name == "name":
        answer = "= fake\n"
    elif name == "version":
        answer = "= 0\n"
    elif name == "list_commands":
        answer = "= genmove\nplay\nloadsgf\nset_game\nquit\n"
    elif name == "set_game" and mode == "nogame":
        answer = "? unknown game\n"
    elif name == "genmove":
        asked += 1
        if first is not None and asked == 1:
            print(f"= {first}\n", flush=True)
            continue
        if mode == "hang":
            time.sleep(3600)
        if mode == "crash":
            sys.exit(3)
        moves = {"illegal": "a1", "garbage": "z99,q0", "pass": "pass", "resign": "resign"}
        answer = f"= {moves[mode]}\n" if mode in moves else "? no move today\n"
    else:
        answer = "= \n"
    print(answer, flush=True)
