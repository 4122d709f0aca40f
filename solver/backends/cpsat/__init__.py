"""CP-SAT: the model (``model``), its lazy connectivity cuts (``cuts``), the solve that
alternates them (``solving``), symmetric layouts solved on it (``symmetric``), and the
parameters: ``--params`` checked, which keep a proof (``params``).

The front door (each name imported from its home on first use, so that OR-tools loads
only when the model is built, :mod:`solver.backends.face`): :func:`solve` (a backend's
solve), :func:`solve_symmetric` (layouts a board symmetry maps onto themselves),
:func:`parse_params` (``--params`` checked), :func:`params_can_prove` and
:data:`NOT_A_PROOF` (which parameters keep an "infeasible" a proof).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from solver.backends.face import lazy

if TYPE_CHECKING:
    from solver.backends.cpsat.params import NOT_A_PROOF, params_can_prove, parse_params
    from solver.backends.cpsat.solving import solve
    from solver.backends.cpsat.symmetric import solve_symmetric

__all__ = ["NOT_A_PROOF", "params_can_prove", "parse_params", "solve", "solve_symmetric"]

__getattr__ = lazy(
    __name__,
    {
        "NOT_A_PROOF": "params",
        "params_can_prove": "params",
        "parse_params": "params",
        "solve": "solving",
        "solve_symmetric": "symmetric",
    },
)
