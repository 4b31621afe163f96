"""search.race: the first answer wins, the losers are killed, failures are not lost."""

from __future__ import annotations

import os
import time

import pytest

from search.race import (
    can_race,
    cores_here,
    first_answer,
    step_aside,
    take_one_core,
    this_core,
)

needs_fork = pytest.mark.skipif(not can_race(), reason="no fork on this platform")


class NoAnswer(Exception):
    pass


def slow(seconds: float, value):
    def call():
        time.sleep(seconds)
        return value
    return call


def no_answer():
    raise NoAnswer


def broken():
    raise ValueError("a bug")


def died():
    os._exit(3)


@needs_fork
def test_the_first_answer_wins_and_the_loser_is_killed():
    start = time.perf_counter()
    assert first_answer([slow(60, "late"), slow(0.05, "soon")], gives_up=NoAnswer) == "soon"
    assert time.perf_counter() - start < 30  # nobody waited for the slow call


@needs_fork
def test_a_call_without_an_answer_leaves_the_race_to_the_others():
    assert first_answer([no_answer, slow(0.2, 7)], gives_up=NoAnswer) == 7
    with pytest.raises(NoAnswer):
        first_answer([no_answer, no_answer], gives_up=NoAnswer)


@needs_fork
def test_other_failures_are_raised():
    with pytest.raises(ValueError, match="a bug"):
        first_answer([broken, slow(60, 1)], gives_up=NoAnswer)
    with pytest.raises(RuntimeError, match="died"):
        first_answer([died, slow(60, 1)], gives_up=NoAnswer)


def test_in_order_when_not_at_once():
    calls = []

    def record(value):
        def call():
            calls.append(value)
            return value
        return call

    assert first_answer([record(1), record(2)], gives_up=NoAnswer, at_once=False) == 1
    assert calls == [1]  # in this process, in order, and the second never ran
    assert first_answer([no_answer, record(3)], gives_up=NoAnswer, at_once=False) == 3
    with pytest.raises(NoAnswer):
        first_answer([no_answer], gives_up=NoAnswer)


def niceness_after_stepping_aside():
    step_aside(5)
    return os.getpriority(os.PRIO_PROCESS, 0)


@needs_fork
def test_a_raced_call_steps_aside_in_its_own_process_only():
    before = os.getpriority(os.PRIO_PROCESS, 0)
    assert first_answer([niceness_after_stepping_aside, slow(60, None)],
                        gives_up=NoAnswer) == min(before + 5, 19)
    assert first_answer([niceness_after_stepping_aside], gives_up=NoAnswer,
                        at_once=False) == before  # in order: this process keeps its priority
    assert os.getpriority(os.PRIO_PROCESS, 0) == before


@needs_fork
def test_racing_calls_are_stopped_at_the_time_limit():
    start = time.perf_counter()
    with pytest.raises(NoAnswer):
        first_answer([slow(60, 1), slow(60, 2)], gives_up=NoAnswer, time_limit=0.2)
    assert time.perf_counter() - start < 30


def cores_after(pin):
    def call():
        pin()
        return sorted(os.sched_getaffinity(0))
    return call


@needs_fork
@pytest.mark.skipif(not hasattr(os, "sched_setaffinity") or len(os.sched_getaffinity(0)) < 2,
                    reason="one CPU, or no pinning on this platform")
def test_raced_calls_split_the_cpus_and_the_caller_keeps_them_all():
    every = sorted(os.sched_getaffinity(0))
    core = this_core()
    assert core in every
    assert first_answer([cores_after(lambda: take_one_core(core)), slow(60, None)],
                        gives_up=NoAnswer) == [core]
    assert first_answer([cores_after(lambda: step_aside(0, leave=core)), slow(60, None)],
                        gives_up=NoAnswer) == [c for c in every if c != core]
    assert first_answer([cores_after(lambda: take_one_core(core))], gives_up=NoAnswer,
                        at_once=False) == every  # in order: nothing is pinned
    assert sorted(os.sched_getaffinity(0)) == every
    assert first_answer([lambda: (take_one_core(core), cores_here())[1], slow(60, None)],
                        gives_up=NoAnswer) == 1
    assert cores_here() == len(every)
    # without a core to share out, nothing is pinned either
    assert first_answer([cores_after(lambda: take_one_core(None)), slow(60, None)],
                        gives_up=NoAnswer) == every
