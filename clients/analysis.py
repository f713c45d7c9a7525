"""`bgb analyse GAME`: ask for the engine's analysis of a finished game, follow its progress,
and print every analysed decision's class and better move, and each seat's accuracy."""

from __future__ import annotations

from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from clients import i18n
from clients.sdk import Client

# How each class is shown: its colour in the terminal.
STYLES = {"best": "green", "good": "green", "inaccuracy": "yellow", "mistake": "dark_orange",
          "blunder": "red", "forced": "dim"}
# The classes worth a line of their own in the summary, worst last.
FLAWS = ("inaccuracy", "mistake", "blunder")


def class_name(classification: str) -> str:
    """A class as a player reads it, in the active language."""
    names = {"best": i18n._("best move"), "good": i18n._("good"),
             "inaccuracy": i18n._("inaccuracy"), "mistake": i18n._("mistake"),
             "blunder": i18n._("blunder"), "forced": i18n._("only move")}
    return names.get(classification, classification)


def _label(move: dict[str, Any] | None) -> str:
    if not move:
        return ""
    return str(move.get("label") or move.get("type") or "")


def _points(value: float | None) -> str:
    return "" if value is None else f"{value:+.1f}"


def moves_table(analysis: dict[str, Any]) -> Table:
    """One row per analysed decision: who, what was played, its class, the better move."""
    table = Table(title=i18n._("Analysis of game {id}").format(id=analysis["game_id"]))
    table.add_column("#", justify="right")
    table.add_column(i18n._("seat"), justify="right")
    table.add_column(i18n._("move played"))
    table.add_column(i18n._("class"))
    table.add_column(i18n._("loss"), justify="right")
    table.add_column(i18n._("better move"))
    for move in analysis["moves"]:
        kind = move["classification"]
        better = "" if kind in ("best", "good", "forced") else _label(move["best"])
        table.add_row(str(move["index"]), str(move["seat"]), _label(move["move"]),
                      f"[{STYLES.get(kind, '')}]{class_name(kind)}[/]",
                      "" if kind in ("best", "forced") else f"{move['loss']:.1f}",
                      better)
    return table


def accuracy_table(analysis: dict[str, Any]) -> Table:
    """Each seat's accuracy and how many inaccuracies, mistakes and blunders it made."""
    table = Table(title=i18n._("Accuracy per seat"))
    table.add_column(i18n._("seat"), justify="right")
    table.add_column(i18n._("accuracy"), justify="right")
    for flaw in FLAWS:
        table.add_column(class_name(flaw), justify="right")
    for seat in analysis["seats"]:
        value = analysis["accuracy"].get(str(seat))
        counts = [sum(1 for m in analysis["moves"]
                      if m["seat"] == seat and m["classification"] == flaw) for flaw in FLAWS]
        table.add_row(str(seat), "" if value is None else f"{value:.1f}%",
                      *(str(n) for n in counts))
    return table


def legend(analysis: dict[str, Any]) -> str:
    """What the numbers mean: the loss's unit and the game's thresholds."""
    limits = analysis.get("thresholds") or {}
    return i18n._("loss: points of expected final-score margin given away; inaccuracy from "
                  "{inaccuracy}, mistake from {mistake}, blunder from {blunder}").format(
        inaccuracy=limits.get("inaccuracy", "?"), mistake=limits.get("mistake", "?"),
        blunder=limits.get("blunder", "?"))


def analyse(client: Client, console: Console, game_id: str, token: str | None = None,
            seats: list[int] | None = None, timeout: float | None = None,
            interval: float = 0.5) -> int:
    """Ask for the analysis, show its progress, print it; 0 when done, 1 when it failed."""
    with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                  console=console, transient=True) as progress:
        task = progress.add_task(i18n._("analysing"), total=None)

        def show(state: dict[str, Any]) -> None:
            total = state["progress"]["total"] or None
            progress.update(task, completed=state["progress"]["done"], total=total)

        answer = client.wait_for_analysis(game_id, token, seats=seats, timeout=timeout,
                                          interval=interval, on_progress=show)
    if answer["status"] == "failed":
        console.print("[red]" + i18n._("the analysis failed: {error}").format(
            error=answer.get("error") or "?") + "[/]")
        return 1
    console.print(moves_table(answer))
    console.print(accuracy_table(answer))
    console.print(f"[dim]{legend(answer)}[/]")
    return 0
