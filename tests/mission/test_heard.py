"""One model of what is heard when: nominal and measured spans, overlaps, same-event parts."""

from __future__ import annotations

import pytest

from authoring.mission.heard import Heard, heard, overlaps
from authoring.mission.timeline import Cue

THREAT = Cue(10_000, "threat", "Alert. …", 10_000, 1, {}, 0)
DATA = Cue(19_000, "incoming_data", "Incoming data.", 4_700, 1, {}, 1)
COMMS = Cue(40_000, "comms_down", "Communication system down.", 2_400, 1, {}, 2)
STATIC = Cue(40_000, "static", "", 10_000, 1, {}, 2, until_ms=50_000)


def test_nominal_spans_use_the_official_lengths_and_until() -> None:
    assert heard([THREAT, STATIC]) == [Heard(THREAT, 10_000, 20_000),
                                       Heard(STATIC, 40_000, 50_000)]


def test_measured_lengths_replace_the_nominal_ones_but_not_a_lasting_sound() -> None:
    assert heard([THREAT, STATIC], [8_500, 123]) == [Heard(THREAT, 10_000, 18_500),
                                                     Heard(STATIC, 40_000, 50_000)]
    with pytest.raises(ValueError, match="1 lengths for 2 cues"):
        heard([THREAT, STATIC], [1])


def test_overlaps_follow_the_lengths_given() -> None:
    cues = [THREAT, DATA, COMMS, STATIC]
    nominal = [(a.cue.kind, b.cue.kind, n) for a, b, n in overlaps(heard(cues))]
    assert nominal == [("threat", "incoming_data", 1_000), ("comms_down", "static", 2_400)]
    fast = heard(cues, [8_500, 4_000, 2_000, 0])
    assert [(a.cue.kind, b.cue.kind) for a, b, _ in overlaps(fast)] == [("comms_down", "static")]
    # a gap is required after each cue; the parts of one event may overlap by design
    assert [n for *_, n in overlaps(fast, gap_ms=600, same_event=False)] == [100]
