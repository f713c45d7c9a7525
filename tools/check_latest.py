#!/usr/bin/env python3
"""Tomorrow's releases, today: `python3 tools/check_latest.py` installs the project with the
newest releases its pyproject.toml ranges allow (no lock) into a new virtual environment,
serves it with `bgb serve` and runs `tools/smoke.py` against it.

It prints every package newer than `requirements/serve.lock`. When the smoke test fails, it
puts back each newer package's locked version in turn (alone, nothing else changed) and
runs the smoke test again: a package whose locked version makes it pass is the one that
broke, and the report names it with the step it broke. Exit status 0 when the newest
releases pass, 1 when something broke. Run it before every stop; the note says what it
found. Standard library only.
"""

from __future__ import annotations

import argparse
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parent.parent
LOCK = REPO / "requirements" / "serve.lock"
_PIN = re.compile(r"^([A-Za-z0-9_.-]+)==([^\s;\\]+)", re.MULTILINE)


def canonical(name: str) -> str:
    """A distribution's name as pip compares names (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def pins(text: str) -> dict[str, list[str]]:
    """name -> versions of `name==version` lines (a lock file or `pip freeze`); a lock may pin
    a package twice, under markers (e.g. one version for Python < 3.12, one for later)."""
    found: dict[str, list[str]] = {}
    for name, version in _PIN.findall(text):
        found.setdefault(canonical(name), []).append(version)
    return found


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Environment:
    """A new virtual environment with the project installed from the working tree."""

    def __init__(self, where: Path) -> None:
        self.where = where
        subprocess.run([sys.executable, "-m", "venv", str(where / "venv")], check=True)
        self.python = str(where / "venv" / "bin" / "python")
        self.bgb = str(where / "venv" / "bin" / "bgb")

    def pip(self, *args: str) -> bool:
        """pip install `args`; whether it succeeded."""
        return subprocess.run([self.python, "-m", "pip", "install", "-q", *args],
                              stderr=subprocess.DEVNULL).returncode == 0

    def installed(self) -> dict[str, str]:
        frozen = subprocess.run([self.python, "-m", "pip", "freeze"], check=True,
                                capture_output=True, text=True).stdout
        return pins(frozen)

    def smoke(self, label: str) -> tuple[bool, str]:
        """Serve from outside the repository and run the smoke test: passed, and the
        failure's line (or the last line)."""
        port = free_port()
        log = self.where / f"serve-{label}.log"
        env = {**os.environ, "BGB_DATA_DIR": str(self.where / f"data-{label}"),
               # Short enough for the smoke test to check them (it reads the same settings).
               "BGB_MAX_CONNECTIONS_PER_CLIENT": "20", "BGB_BODY_TIMEOUT": "2"}
        env.pop("REDIS_URL", None)
        with open(log, "wb") as out:
            server = subprocess.Popen([self.bgb, "serve", "--port", str(port)], cwd=self.where,
                                      env=env, stdout=out, stderr=subprocess.STDOUT,
                                      start_new_session=True)
        try:
            checked = subprocess.run([sys.executable, str(REPO / "tools" / "smoke.py"),
                                      f"http://127.0.0.1:{port}", "--wait", "120"],
                                     capture_output=True, text=True, timeout=600, env=env)
        finally:
            os.killpg(server.pid, signal.SIGINT)
            try:
                server.wait(30)
            except subprocess.TimeoutExpired:
                os.killpg(server.pid, signal.SIGKILL)
        lines = checked.stdout.strip().splitlines() or ["(no output)"]
        failed = [line for line in lines if "FAILED" in line]
        served = log.read_text(errors="replace")
        if "MonkeyPatchWarning" in served:
            failed.append("gevent patched too late (MonkeyPatchWarning in the log)")
        if checked.returncode != 0 and not failed:
            failed.append(lines[-1])
        if failed:
            tail = "\n".join(served.strip().splitlines()[-15:])
            return False, failed[0] + f"\n    last lines of bgb serve's log:\n{tail}"
        return True, lines[-1]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--keep", action="store_true", help="keep the environment's folder")
    args = parser.parse_args(argv)
    started = time.monotonic()
    where = Path(tempfile.mkdtemp(prefix="bgb-latest."))
    try:
        return check(where, started)
    finally:
        if not args.keep:
            subprocess.run(["rm", "-rf", str(where)], check=False)


def check(where: Path, started: float) -> int:
    """Install, list what is newer, smoke, and find the culprit of a failure."""
    env = Environment(where)
    print(f"== the newest releases pyproject.toml allows, in {where}/venv", flush=True)
    if not env.pip(str(REPO)):
        print("== the project does not install with the newest releases (pip failed)")
        return 1
    locked, newest = pins(LOCK.read_text()), env.installed()
    newer = {name: (version, locked[name]) for name, (version, *_) in sorted(newest.items())
             if name in locked and version not in locked[name]}
    unlocked = sorted(set(newest) - set(locked) - {"boardgamesbot"})
    for name, (version, was) in newer.items():
        print(f"   {name} {version} (locked {' or '.join(was)})")
    if unlocked:
        print(f"   not in the lock: {', '.join(unlocked)}")
    if not newer and not unlocked:
        print("   nothing newer than the lock")
    passed, line = env.smoke("newest")
    if passed:
        print(f"== the smoke test passes with the newest releases ({line})")
        print(f"   ({time.monotonic() - started:.0f} s)")
        return 0
    print(f"== the smoke test FAILS with the newest releases: {line}")
    culprits = []
    for name, (version, was) in newer.items():
        # the locked version for this Python (a lock may pin one per Python version)
        if not any(env.pip("--no-deps", f"{name}=={locked}") for locked in was):
            print(f"   {name} {version}: no locked version installs here", flush=True)
            continue
        fixed, _ = env.smoke(name)
        env.pip("--no-deps", f"{name}=={version}")
        verdict = "BREAKS it" if fixed else "is not the cause"
        print(f"   {name} {version} (locked {' or '.join(was)}): {verdict}", flush=True)
        if fixed:
            culprits.append(f"{name} {version}")
    if culprits:
        print(f"== broken by: {', '.join(culprits)}; keep the lock's versions, fix the code "
              "or give pyproject.toml an upper bound with the reason")
    else:
        print("== no single package's locked version fixes it: a combination, or the code")
    print(f"   ({time.monotonic() - started:.0f} s)")
    return 1


if __name__ == "__main__":
    sys.exit(main())
