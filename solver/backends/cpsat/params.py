"""CP-SAT's parameters: ``--params`` checked (:func:`parse_params`), the ones the record
proofs use (:data:`PROOF_PARAMS`), and which leave a "no" or a proven best a proof.

CP-SAT's SatParameters (``ortools/sat/sat_parameters.proto``, some 300 fields) hold more
than tuning: some change what a solve means. ``fix_variables_to_their_hinted_value`` turns
each re-solve's hint (the last solution, which the lazy cuts just ruled out) into
constraints, so CP-SAT answers INFEASIBLE for a puzzle with 458 layouts;
``stop_after_first_solution``, ``stop_after_presolve``, ``enumerate_all_solutions``, the
gap limits and the many presolve and LNS switches change what a status means or are
too many to vouch for. So this is an allow-list, not a deny-list: a solve whose
parameters set only fields listed in :data:`HARMLESS` may prove; any other field (or
text that does not parse) makes its "no" unknown and its proven best a layout not proven
best (:func:`solver.tasks.solve.solve`, and :mod:`solver.trust.proofs` for rows read back).

Own code, as no library says which SatParameters fields keep a status sound.
"""

from __future__ import annotations

from solver.errors import InputError

#: fields that change only speed, logging, threads or the time given: a time limit ends a
#: solve as UNKNOWN, never INFEASIBLE; ``linearization_level`` and ``root_lp_iterations``
#: add valid LP relaxation rows (:data:`PROOF_PARAMS`)
HARMLESS = frozenset(
    {
        "log_search_progress",
        "log_subsolver_statistics",
        "log_prefix",
        "log_to_stdout",
        "log_to_response",
        "num_workers",
        "num_search_workers",
        "random_seed",
        "max_time_in_seconds",
        "max_deterministic_time",
        "linearization_level",
        "root_lp_iterations",
    }
)

#: the note a result gets when its proof is not taken
NOT_A_PROOF = "--params given: CP-SAT's no is not taken as a proof"


def fields_set(params: str) -> set[str] | None:
    """The SatParameters fields ``params`` (protobuf text format) sets, or None when it
    is not SatParameters text."""
    from google.protobuf import text_format
    from ortools.sat import sat_parameters_pb2

    message = sat_parameters_pb2.SatParameters()
    try:
        text_format.Parse(params, message)
    except text_format.ParseError:
        return None
    return {f.name for f, _ in message.ListFields()}


def params_can_prove(params: object) -> bool:
    """True if a solve given CP-SAT parameters ``params`` (``--params`` text, or a row's
    ``params`` field: anything) may still prove: none given (empty or None), or every field
    set is in :data:`HARMLESS`."""
    if params is None or params == "":
        return True
    if not isinstance(params, str):
        return False
    found = fields_set(params)
    return found is not None and found <= HARMLESS


#: CP-SAT parameters for proving "no" (``--params``): the full linear relaxation
#: (``linearization_level:2``: at-most-ones and clauses too), solved at the root for up to
#: 200,000 simplex iterations. With the 2x2-block rows (:func:`_add_block_constraints`) this
#: proves one-colour rectangles impossible that CP-SAT's defaults leave unknown (the boards,
#: times and commands: docs/records.md; `research/notes/record_attempts.md`)
PROOF_PARAMS = "linearization_level:2 root_lp_iterations:200000"


def parse_params(text: str) -> str:
    """Check CP-SAT parameters in protobuf text format; return them normalised.

    The text is parsed with ``google.protobuf.text_format`` into ``SatParameters`` (OR-tools
    9.15's solver parameters are a C++ object that takes text, so they are handed over as
    text afterwards).

    Raises:
        InputError: the text does not parse or names no field of SatParameters.
    """
    from google.protobuf import text_format  # (here: params_can_prove loads no protobuf)
    from ortools.sat import sat_parameters_pb2

    message = sat_parameters_pb2.SatParameters()
    try:
        text_format.Parse(text, message)
    except text_format.ParseError as e:
        raise InputError(f"bad CP-SAT parameters {text!r}: {e}", where="params") from None
    return str(text_format.MessageToString(message, as_one_line=True))


def full_relaxation(params: str) -> bool:
    """True when CP-SAT parameters (normalised text, see :func:`parse_params`) ask for the
    full linear relaxation (``linearization_level`` 2 or more), the one that uses the
    2x2-block rows."""
    from google.protobuf import text_format  # (here: params_can_prove loads no protobuf)
    from ortools.sat import sat_parameters_pb2

    message = sat_parameters_pb2.SatParameters()
    text_format.Parse(params, message)
    return message.linearization_level >= 2
