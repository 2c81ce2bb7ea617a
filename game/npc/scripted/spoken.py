"""How speech says a phrase shorter than it is written: words run together ("does not" ->
"doesn't", "I have" -> "I've"), a sentence's opening article dropped, a long phrase's
asides of where or how long left out. The persona brain says its sheet's phrases so, so
that a line does not read the map maker's persona back word for word.
"""

from __future__ import annotations

import re

__all__ = ["contracted", "spoken_form", "trimmed"]

# Words said shorter in speech: "he is" -> "he's", "will not" -> "won't".
_SPOKEN = (
    (re.compile(r"\b(I|you|we|they) are\b", re.I), r"\1're"),
    (re.compile(r"\b(he|she|it|that|there|who|what) is\b", re.I), r"\1's"),
    (re.compile(r"\bI am\b"), "I'm"),
    (re.compile(r"\b(I|you|we|they|he|she|it) will\b", re.I), r"\1'll"),
    (re.compile(r"\bwill not\b", re.I), "won't"),
    (re.compile(r"\bcan ?not\b", re.I), "can't"),
    (
        re.compile(r"\b(is|are|was|were|does|do|did|has|have|had|could|would|should) not\b", re.I),
        r"\1n't",
    ),
)
# A sentence's article, dropped as speech drops it: "The only good thing" -> "Only good thing".
_OPENING_ARTICLE = re.compile(r"(^|[?!.]\s+)(?:The|An?) ([a-z])")


def spoken_form(phrase: str) -> str:
    """A phrase as speech says it, shorter: its words run together ("does not" ->
    "doesn't"), else its sentences' opening article dropped ("The only good thing he
    sells" -> "Only good thing he sells"); the phrase itself when neither applies."""
    said = phrase
    for pattern, short in _SPOKEN:
        said = pattern.sub(short, said)
    if said != phrase:
        return said
    return _OPENING_ARTICLE.sub(lambda m: m[1] + m[2].upper(), phrase)


# A phrase's aside of where or how long, said mid-clause: "every clock | in the village |
# stops | for a moment | whenever...".
_ASIDE = re.compile(
    r"\s+(?:in|on|at|for|from|by|near|around|across|over)\s+(?:the|a|an|this|that|our|my|his|"
    r"her)\s+\w+(?=\s+\w)",
    re.I,
)
_ASIDE_WORDS = 8  # the fewest words of a phrase said again without its asides


def trimmed(phrase: str) -> str:
    """A long phrase said without its asides ("every clock stops whenever someone tells a
    lie"); the phrase itself when it is short or has none."""
    if len(phrase.split()) < _ASIDE_WORDS:
        return phrase
    return _ASIDE.sub("", phrase)


_CONTRACTIONS = (
    (r"\bI have\b", "I've"),
    (r"\bI am\b", "I'm"),
    (r"\bI will\b", "I'll"),
    (r"\bI would\b", "I'd"),
    (r"\b(do|does|is|are|was|were|has|have|would|should|could) not\b", r"\1n't"),
    (r"\bcannot\b", "can't"),
    (r"\bwill not\b", "won't"),
    (r"\b(it|that|there|he|she) is\b", r"\1's"),
    (r"\b(it|that|there|he|she) has (?=been\b|got\b|\w+ed\b)", r"\1's "),  # "it's aged"
    (r"\bnever (have|has|had)\b", r"\1 never"),  # "might as well have never happened"
    (
        r"\b(?<!I )(?<!you )(?<!we )(?<!they )([a-z]+) has (just|already|never|been|got)\b",
        r"\1's \2",
    ),
)


def contracted(phrase: str) -> str:
    """A phrase as it is said aloud: "I have" -> "I've", "is not" -> "isn't"."""
    for pattern, short in _CONTRACTIONS:
        phrase = re.sub(pattern, short, phrase)
    return phrase
