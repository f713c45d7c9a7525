"""Checks of the component data files against the rulebook's counts and structure."""

from __future__ import annotations

from core.darwins_journey.data import DATA


def test_component_counts() -> None:
    """12 special tiles, 8 correspondence tiles, 12 Beagle goals, 16 crew cards, 8+20 objectives."""
    assert sorted(DATA.special_tiles) == list(range(1, 13))
    assert sorted(DATA.corr_tiles) == list(range(1, 9))
    assert sorted(DATA.beagle_goals) == list(range(1, 13))
    assert sorted(DATA.crew) == list(range(1, 17))
    objectives = list(DATA.objectives.values())
    for gold in (False, True):
        assert sum(1 for o in objectives if o.gold == gold and o.starting) == 4
        assert sum(1 for o in objectives if o.gold == gold and not o.starting) == 10
    needs = {o.needs for o in objectives}
    assert len(needs) == len(objectives), "no two objective tiles alike"


def test_crew_cards() -> None:
    """Each crew card needs 5 seals; 4 cards per starting colour."""
    for card in DATA.crew.values():
        assert sum(n for _, n in card.needs) == 5
    for colour in "GBRY":
        assert sum(1 for c in DATA.crew.values() if c.seal == colour) == 4


def test_tracks_are_connected_with_one_end() -> None:
    """Every track space is reachable from the start and leads to the single last space."""
    for track in (DATA.ocean, *DATA.islands):
        seen = {0}
        todo = [0]
        while todo:
            for q in track[todo.pop()].next:
                if q not in seen:
                    seen.add(q)
                    todo.append(q)
        assert seen == set(range(len(track)))
        assert [s.index for s in track if not s.next] == [len(track) - 1]
        for s in track:
            assert all(q > s.index or track is not DATA.ocean for q in s.next)


def test_campsites_and_specimen_spaces() -> None:
    """Campsites sit on track spaces that name them; 10/13/16 specimen spaces by player count."""
    spaces = {s.id: s for s in DATA.ocean} | {s.id: s for t in DATA.islands for s in t}
    for area in DATA.campsites.values():
        assert ("campsite", area.id) in spaces[area.space].actions
    counts = [sum(len(DATA.specimen_spaces[c]) for c in DATA.specimen_spaces if c <= p)
              for p in (2, 3, 4)]
    assert counts == [10, 13, 16]
    every = [sp for c in DATA.specimen_spaces.values() for sp in c]
    assert len(set(every)) == 16 and all(sp in spaces for sp in every)


def test_board_constants() -> None:
    """Beagle spaces on the ocean, 36-step evolution track, 10 objective slots."""
    assert len(DATA.beagle_spaces) == 5 == len(DATA.delay_penalties)
    assert len(DATA.books) == 37 and DATA.books[15] == 9
    assert len(DATA.objective_slots) == 10
    assert [s.vp for s in DATA.objective_slots] == [1, 1, 2, 2, 5, 4, 4, 2, 4, 8]
    assert DATA.placement_penalty[2] == 3 and DATA.placement_penalty[3] == 2
