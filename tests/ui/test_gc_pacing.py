"""Cyclic collections run between frames while the window runs, with Python's thresholds."""

from __future__ import annotations

import gc


class _Cycle:
    def __init__(self) -> None:
        self.me = self


def test_collections_wait_for_the_end_of_a_frame_then_follow_the_thresholds() -> None:
    from game.ui.app import CollectBetweenFrames

    assert gc.isenabled()
    collected: list[int] = []

    def seen(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            collected.append(info["generation"])

    gc.callbacks.append(seen)
    try:
        with CollectBetweenFrames() as between_frames:
            assert not gc.isenabled()
            threshold = gc.get_threshold()[0]
            garbage = [_Cycle() for _ in range(threshold * 3)]  # a frame's worth
            del garbage
            assert collected == [], "nothing collects inside the frame"
            between_frames()
            assert collected and collected[0] in (0, 1, 2)
            assert gc.get_count()[0] < threshold
            collected.clear()
            between_frames()
            assert collected == [], "counts under the threshold: no pass"
        assert gc.isenabled()
    finally:
        gc.callbacks.remove(seen)


def test_collections_are_left_as_they_were_found() -> None:
    from game.ui.app import CollectBetweenFrames

    gc.disable()
    try:
        with CollectBetweenFrames():
            pass
        assert not gc.isenabled(), "it restores what it found"
    finally:
        gc.enable()
