"""Trajectory drawings: squares to scale, stops at the card's speed, when X/Y/Z are reached."""

from __future__ import annotations

from authoring.render.tracks import SQUARE, draw_track, reach_text, stack_tracks


def test_t1_at_speed_2_stops_and_reaches() -> None:
    track = draw_track("T1", 2, external=True)
    assert [s.number for s in track.squares] == list(range(10, 0, -1))
    stops = {s.number: s.stop for s in track.squares if s.stop >= 0}
    assert stops == {10: 0, 8: 1, 6: 2, 4: 3, 2: 4, 1: 5}
    # X on square 5 is passed on the 3rd move (6 -> 4), Z on the 5th
    assert [(r.action, r.square, r.move) for r in track.reaches] == [("x", 5, 3), ("z", 1, 5)]
    assert reach_text(track, turns=False) == "X3 · Z5"


def test_t7_has_two_y_squares_and_distance_bands() -> None:
    track = draw_track("T7", 3, external=True)
    actions = {s.number: s.action for s in track.squares if s.action}
    assert actions == {12: "x", 8: "y", 5: "y", 1: "z"}
    bands = {s.number: s.band for s in track.squares}
    assert (bands[16], bands[11], bands[10], bands[6], bands[5], bands[1]) == (3, 3, 2, 2, 1, 1)


def test_turns_count_from_the_appearance_turn_and_stop_after_the_closing_step() -> None:
    track = draw_track("T2", 1, external=True, appears=3)  # Man-of-War style: speed 1
    assert [(r.action, r.turn) for r in track.reaches] == [("x", 5), ("z", 12)]
    late = draw_track("T7", 1, external=True, appears=8)
    assert [r.reached for r in late.reaches] == [True, False, False, False]
    assert reach_text(late, turns=True) == ("X turn 11 · Y not reached · Y not reached · "
                                            "Z not reached")


def test_tracks_share_the_scale_and_the_ship_end() -> None:
    short, long = draw_track("T1", 2, external=True, label_w=30), draw_track(
        "T7", 2, external=True, label_w=30)
    assert short.ship_x == long.ship_x
    assert short.squares[-1].x == long.squares[-1].x  # square 1 next to the ship
    assert long.squares[0].x == 30 and short.squares[0].x == 30 + 6 * SQUARE


def test_formula_speed_draws_the_board_without_stops() -> None:
    track = draw_track("T3", None, external=False)
    assert [s.stop for s in track.squares].count(0) == 1
    assert track.reaches == () and reach_text(track, turns=False) == "speed varies"


def test_stack_puts_rows_under_each_other() -> None:
    tracks = tuple(draw_track(b, 2, external=True, label_w=20) for b in ("T1", "T2", "T3"))
    stack = stack_tracks(tracks, turns=False)
    ys = [row.y for row in stack.rows]
    assert ys == sorted(ys) and len(set(ys)) == 3
    assert stack.height > ys[-1] + tracks[0].height
    assert all(row.fills for row in stack.rows)
