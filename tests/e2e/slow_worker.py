"""A bot worker whose bots think for a long time, so a test can kill it in the middle of a turn.

    python -m tests.e2e.slow_worker   (same options as ai_worker.worker)
"""

from __future__ import annotations

import os
import time
from typing import Any

import ai_worker.jobs as jobs
from ai_worker.worker import main

_choose = jobs.choose_move


_chosen = 0


def _slow_choose(*args: Any, **kwargs: Any) -> dict[str, Any]:
    # The first BGB_TEST_FAST_TURNS choices are quick: a test can kill the worker in a turn
    # its job plays after its own.
    global _chosen
    _chosen += 1
    if _chosen > int(os.environ.get("BGB_TEST_FAST_TURNS", "0")):
        time.sleep(float(os.environ.get("BGB_TEST_THINK_SECONDS", "60")))
    return _choose(*args, **kwargs)


jobs.choose_move = _slow_choose

if __name__ == "__main__":
    raise SystemExit(main())
