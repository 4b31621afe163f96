"""Shared test fixtures: where the public instances live, and backend lists."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
INSTANCES = ROOT / "instances"
SHARED = ROOT.parent / "shared"  # public instance sets beside the checkout, when present


def shared(*parts: str) -> Path:
    """A path under ../shared, or skip the test when that folder is absent."""
    path = SHARED.joinpath(*parts)
    if not path.exists():
        pytest.skip(f"{path} is not available")
    return path


def backend_names(puzzle: str) -> list[str]:
    from search.core.registry import kind

    return list(kind(puzzle).backends)


def small(puzzle: str, instance) -> bool:
    """Is a bundled instance small enough for every backend's every call?"""
    if puzzle == "futoshiki":
        return instance.n <= 5
    if puzzle == "numberlink":
        return instance.height * instance.width <= 64
    return len(instance.tiles) <= 24
