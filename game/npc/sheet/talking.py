"""How a persona says the NPC talks (few words, questions, jokes, formal, a stammer...),
read from its words of temperament and manner, not from how those it likes or dislikes do.
"""

from __future__ import annotations

import re

from game.npc.scripted.moods import temperament
from game.npc.sheet.model import Talk

__all__ = ["TALK_WORDS", "talks_of"]

TALK_WORDS: tuple[tuple[Talk, re.Pattern[str]], ...] = (
    (
        "few words",
        re.compile(
            r"\bfew words\b|\bshort sentences\b|\bterse\b|\btaciturn\b|\bcurt\b|\blaconic\b|"
            r"\bsays little\b|\bslow-spoken\b|\bquiet\b|\bclipped\b|\bmonosyllab",
            re.I,
        ),
    ),
    (
        "questions",
        re.compile(
            r"\bquestions\b|\bquestion with (?:a|another)\b|\bnosy\b|\binquisitive\b|\bcurious\b",
            re.I,
        ),
    ),
    (
        "jokes",
        re.compile(r"\bjok(?:e|es|ing)\b|\bjests?\b|\bpuns?\b|\bwitty\b|\bwit\b|\bteas", re.I),
    ),
    (
        "formal",
        re.compile(r"\bformal\b|\bproper\b|\bcourteous\b|\bstern\b|\bprecise\b|\bdignified", re.I),
    ),
    ("stammer", re.compile(r"\bstammer|\bstutter", re.I)),
    ("loud", re.compile(r"\bloud\b|\bbooming\b|\bbellow|\bshouts?\b|\bboisterous\b", re.I)),
    (
        "gloomy",
        re.compile(
            r"\bgloomy\b|\bglum\b|\bdour\b|\bmorose\b|\bmelanchol|\bpessimis|"
            r"\bgrim\b",
            re.I,
        ),
    ),
    (
        "cheerful",
        re.compile(
            r"\bcheerful\b|\bjolly\b|\bmerry\b|\bsunny\b|\bbright\b|\bbubbly\b|\bgiggl", re.I
        ),
    ),
    ("brisk", re.compile(r"\bbrisk\b|\bno-nonsense\b|\bpractical\b|\bsharp-tongued\b", re.I)),
)


def talks_of(persona: str) -> tuple[Talk, ...]:
    """How the persona says the NPC talks (not how those it likes or dislikes do)."""
    own = temperament(persona)
    return tuple(talk for talk, pattern in TALK_WORDS if pattern.search(own))
