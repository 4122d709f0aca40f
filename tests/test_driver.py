"""The kernels' driver (solver/backends/driver.py): the sliced run, with a stand-in search
that counts nodes, and the restart sequence."""

import threading

from solver.backends import driver
from solver.backends.domain import kernel as domain_kernel
from solver.backends.search import kernel as search_kernel


class Counter:
    """A resumable search that ends (code 0) after ``total`` nodes."""

    def __init__(self, total: int):
        self.total, self.nodes, self.calls = total, 0, []

    def run(self, budget: int) -> int:
        self.calls.append(budget)
        step = min(budget, self.total - self.nodes)
        self.nodes += step
        return 0 if self.nodes >= self.total else driver.PAUSE


def test_both_kernels_pause_with_the_drivers_code():
    assert search_kernel.PAUSE == domain_kernel.PAUSE == driver.PAUSE


def test_a_run_goes_on_until_the_search_ends():
    search = Counter(50_000)
    assert driver.sliced_run(search, None) == 0
    assert search.nodes == 50_000 and len(search.calls) >= 2  # resumed, not one call


def test_a_node_budget_is_spent_exactly_whatever_the_slices():
    search = Counter(10**9)
    assert driver.sliced_run(search, None, nodes=123_457) == driver.PAUSE
    assert search.nodes == 123_457


def test_a_cancel_set_stops_after_one_slice():
    cancel = threading.Event()
    cancel.set()
    search = Counter(10**9)
    assert driver.sliced_run(search, None, cancel=cancel) == driver.PAUSE
    assert search.calls == [driver.FIRST_SLICE]


def test_a_time_limit_passed_stops_after_one_slice():
    search = Counter(10**9)
    assert driver.sliced_run(search, 0.0) == driver.PAUSE
    assert len(search.calls) == 1


def test_luby_sequence():
    assert [driver.luby(k) for k in range(1, 16)] == [1, 1, 2, 1, 1, 2, 4, 1, 1, 2, 1, 1, 2, 4, 8]
