"""The API's gunicorn settings (api/gunicorn_conf.py) that are not checked end to end."""

from __future__ import annotations

import gc


def test_a_worker_freezes_what_it_loaded_out_of_the_collectors_sight() -> None:
    from api import gunicorn_conf

    gc.unfreeze()
    try:
        gunicorn_conf.post_worker_init(None)
        # Every object of this process so far (the app's modules among them) is frozen.
        assert gc.get_freeze_count() > 10_000
        assert not any(type(o).__name__ == "module" for o in gc.get_objects(generation=2))
    finally:
        gc.unfreeze()
