"""Proofs of "no" by bounds: the linear relaxation of place-all (``relaxation``) and the
engine that runs it (``lp``)."""
