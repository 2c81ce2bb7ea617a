"""clean_text: no control character but tab and newline survives; the rest is kept."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from game.text import clean_text

FORBIDDEN = {c for c in (*range(0x20), *range(0x7F, 0xA0)) if chr(c) not in "\t\n"}
HOSTILE = "\x1b[2J\x1b]0;pwned\x07\x1b]52;c;ZXZpbA==\x07\r\x00\x9b\x7f"


@given(st.text())
@example(HOSTILE)
@example("".join(map(chr, range(0x100))))
def test_no_control_character_survives(text: str) -> None:
    assert not {ord(ch) for ch in clean_text(text)} & FORBIDDEN


# Every character but the forbidden ones: letters of any script, emoji, tab, newline.
KEPT = st.characters(blacklist_characters=[chr(c) for c in FORBIDDEN])


@given(st.text(alphabet=KEPT))
@example("Grüße, café — ☕ 👩‍🌾 नमस्ते\tcol\nnext line")
def test_tab_newline_and_ordinary_unicode_are_kept(text: str) -> None:
    assert clean_text(text) == text


@given(st.text(), st.text(alphabet=KEPT))
def test_only_the_forbidden_characters_go_and_it_is_idempotent(noise: str, kept: str) -> None:
    mixed = "".join(a + b for a, b in zip(noise, kept, strict=False))
    once = clean_text(mixed)
    assert clean_text(once) == once
    assert once == "".join(ch for ch in mixed if ord(ch) not in FORBIDDEN)


def test_the_terminal_escapes_lose_their_escape_character() -> None:
    assert clean_text(HOSTILE) == "[2J]0;pwned]52;c;ZXZpbA=="
    assert clean_text("line\r\nnext") == "line\nnext"
