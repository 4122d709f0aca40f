"""Layouts by construction: greedy play (``greedy``), then repairs, a large-neighbourhood
search that re-places pieces exactly (``repairer``)."""
