"""Replay of records: what was written against what happened on the board."""

from __future__ import annotations

from hexhop.engine.replay import End, replay_game
from hexhop.notation import parse_text

STUDY = '[Game "Hexalit"]\n[Position "N: A7=1 B7=6; S: F7=1 E6=2; turn: N"]\n'
#   A  . . . . N1 . . . .        North's 6 on B7 slides south through the
#   B  . . . . N6 . . . . . .    empty C7, D7 and E7 onto South's only One
#   ...                          on F7: no South One is left, so B7°F7 wins.
#   F  . . . . s1 . . . .


def replay(text: str):
    (parsed,) = parse_text(text, path="test.hxl")
    return replay_game(parsed)


def codes(report) -> list[tuple[str, int | None, int | None, int | None]]:
    return [(f.code, f.line, f.column, f.ply) for f in report.findings]


def test_a_clean_record_has_positions_for_every_ply():
    report = replay('[Game "Hexalit"]\n[First "North"]\n\n1. B6XC6 E8XD8 2. B5W4 *\n')
    assert codes(report) == []
    assert report.plies == 3
    assert [p.ply for p in report.positions] == [0, 1, 2, 3]
    assert [n.text for n in report.nodes] == ["B6XC6", "E8XD8", "B5W4"]
    assert report.end is None


def test_wrong_move_number_is_a_notation_warning_at_the_number():
    report = replay('[Game "Hexalit"]\n\n1. B6XC6 E8XD8 3. B5W4 *\n')
    assert codes(report) == [("NT01", 3, 16, 3)]
    assert report.findings[0].message == "move number 3 should be 2"
    assert report.valid() and not report.valid(strict=True)


def test_missing_plus_on_the_winning_action():
    report = replay(STUDY + "\n1. B7°F7 1-0\n")
    assert codes(report) == [("AN02", 4, 4, 1)]
    assert report.end == End("North", 1)


def test_spurious_threat_mark():
    report = replay('[Game "Hexalit"]\n\n1. B6XC6^ *\n')
    assert codes(report) == [("AN03", 3, 4, 1)]


def test_threat_mark_where_the_action_wins():
    report = replay(STUDY + "\n1. B7°F7^ 1-0\n")
    assert codes(report) == [("AN06", 4, 4, 1)]


def test_result_contradicting_the_board():
    report = replay(STUDY + "\n1. B7°F7+ 0-1\n")
    assert codes(report) == [("ST02", 4, 11, None)]
    assert not report.valid()


def test_open_result_after_the_end_is_a_warning():
    report = replay(STUDY + "\n1. B7°F7+ *\n")
    assert codes(report) == [("NT02", 4, 11, None)]


def test_action_after_the_end():
    report = replay(STUDY + "\n1. B7°F7+ E6XD6 1-0\n")
    assert codes(report) == [("ST01", 4, 11, 2)]
    assert (
        report.findings[0].message == "E6XD6 comes after the end of the game (North won at ply 1)"
    )


def test_result_tag_and_marker_disagree():
    report = replay(STUDY + '[Result "0-1"]\n\n1. B7°F7+ 1-0\n')
    assert ("HD08", 5, 11, None) in codes(report)


def test_illegal_action_in_a_variation_leaves_the_main_line_going():
    report = replay('[Game "Hexalit"]\n\n1. B6XC6 (1. B6XD6) E8XD8 *\n')
    assert codes(report) == [("IL01", 3, 14, 1)]
    assert report.plies == 2 and len(report.positions) == 3


def test_variation_is_played_from_the_position_before_its_action():
    report = replay('[Game "Hexalit"]\n\n1. B6XC6 E8XD8 (1... E6XD6 2. C6XD6) *\n')
    assert codes(report) == [("IL01", 3, 31, 3)]  # C6XD6: D6 holds a South die


def test_illegal_main_line_action_stops_the_check_of_that_game():
    report = replay('[Game "Hexalit"]\n\n1. B6XC6 E8XD9 2. B5W4 E4XD4 *\n')
    assert codes(report) == [("IL01", 3, 10, 2)]
    assert len(report.positions) == 2


def test_cube_events_are_not_plies():
    report = replay(
        '[Game "Hexalit"]\n[First "North"]\n\n'
        "1. double 2 take B6XC6 E8XD8 2. B5W4 double 4 take D8XC8 *\n"
    )
    assert codes(report) == []
    assert report.plies == 4
    assert report.positions[-1].cube == 4


def test_a_cube_offer_by_the_wrong_side_is_reported_at_the_next_ply():
    report = replay('[Game "Hexalit"]\n[First "North"]\n\n1. B6XC6 double 2 take E8XD8 *\n')
    assert [(c, ply) for c, _, _, ply in codes(report)] == [("IL03", 2)]


def test_a_dropped_cube_ends_the_game_for_the_offering_side():
    report = replay('[Game "Hexalit"]\n[First "North"]\n\n1. B6XC6 E8XD8 2. double 2 drop 1-0\n')
    assert codes(report) == []
    assert report.end == End("North", 2)


def test_header_error_stops_before_any_action():
    report = replay('[Game "Hüpfer"]\n[Board "7x7"]\n\n1. a1-c1@d1 *\n')
    assert codes(report) == [("HD03", 2, 1, None)]
    assert report.positions == []


def test_huepfer_actions_carry_no_marks():
    report = replay('[Game "Hüpfer"]\n\n1. a1-c1@d1^ *\n')
    assert codes(report) == [("AN05", 3, 4, 1)]
