"""Captions: WebVTT cue text is escaped so a player shows exactly what is spoken."""

from __future__ import annotations

import html

from authoring.audio.captions import CaptionCue, to_srt, to_vtt


def _payloads(vtt: str) -> list[str]:
    """Returns the text line of each cue block of a WebVTT file (blocks of id, timing, text)."""
    blocks = vtt.split("\n\n")
    assert blocks[0] == "WEBVTT"
    return [block.splitlines()[2] for block in blocks[1:] if block.strip()]


def test_vtt_escapes_ampersands_and_angle_brackets() -> None:
    texts = ["Red & blue <b>zone</b>", "A --> B", "plain text", "x&lt;y"]
    cues = [CaptionCue(1_000 * i, 1_000 * i + 500, "announcement", t)
            for i, t in enumerate(texts)]
    payloads = _payloads(to_vtt(cues))
    assert payloads[0] == "Red &amp; blue &lt;b&gt;zone&lt;/b&gt;"
    assert "-->" not in payloads[1]
    for payload in payloads:
        assert "<" not in payload and ">" not in payload
    # decoding the entities gives the spoken text back, character for character
    assert [html.unescape(p) for p in payloads] == texts


def test_vtt_keeps_a_cue_on_one_line_and_srt_stays_plain() -> None:
    cue = CaptionCue(0, 900, "announcement", "first line\n\nsecond & last")
    payloads = _payloads(to_vtt([cue]))
    assert payloads == ["first line second &amp; last"]
    assert "second & last" in to_srt([cue])
