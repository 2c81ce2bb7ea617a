"""The sheet's fields a map maker states as Tiled properties; they win over the persona."""

from __future__ import annotations

import re
from collections.abc import Iterable

from game.limits import SHEET_ITEMS, SHEET_PHRASE_CHARS
from game.npc.sheet.model import SURENESS, TALKS, Belief
from game.world.tiled import NpcSpawn

__all__ = ["split_items", "stated"]


def split_items(value: str) -> list[str]:
    return [i.strip() for i in re.split(r"\s*[;,]\s*", value) if i.strip()][:SHEET_ITEMS]


def _short(items: Iterable[str]) -> tuple[str, ...]:
    return tuple(i[:SHEET_PHRASE_CHARS] for i in items)


def stated(npc: NpcSpawn, ids: set[str], where: str, warnings: list[str]) -> dict[str, object]:
    """The sheet's fields the NPC's properties state, read; a bad one is left out with
    one warning line."""
    props = npc.properties
    out: dict[str, object] = {}

    def bad(key: str, why: str) -> None:
        warnings.append(
            f"map {where}: NPC {npc.name!r}: its {key} property {why}; it is read from the "
            "persona instead"
        )

    if props.get("role", "").strip():
        out["role"] = " ".join(props["role"].split())[:SHEET_PHRASE_CHARS]
    for key in ("likes", "dislikes", "fears", "refuses"):
        if props.get(key, "").strip():
            out[key] = _short(split_items(props[key]))
    if props.get("beliefs", "").strip():
        beliefs = []
        for item in re.split(r"\s*;\s*", props["beliefs"].strip()):
            sure, colon, what = item.partition(":")
            if not colon:
                sure, what = "thinks", item
            if sure.strip().lower() not in SURENESS or not what.strip():
                bad("beliefs", f"has {item!r}; write 'certain: ...; thinks: ...; suspects: ...'")
                break
            said = what.strip()[:SHEET_PHRASE_CHARS]
            beliefs.append(Belief.model_validate({"what": said, "sure": sure.strip().lower()}))
        else:
            out["beliefs"] = tuple(beliefs[:SHEET_ITEMS])
    if props.get("opinions", "").strip():
        opinions: dict[str, str] = {}
        for item in re.split(r"\s*;\s*", props["opinions"].strip()):
            other, colon, what = (p.strip() for p in item.partition(":"))
            if not colon or not what or other not in ids:
                bad(
                    "opinions",
                    f"has {item!r}; write 'npc_id: phrase; npc_id: phrase' with this map's ids",
                )
                break
            opinions[other] = what[:SHEET_PHRASE_CHARS]
        else:
            out["opinions"] = dict(list(opinions.items())[:SHEET_ITEMS])
    if props.get("talks", "").strip():
        talks = [" ".join(t.lower().replace("_", " ").split()) for t in split_items(props["talks"])]
        unknown = [t for t in talks if t not in TALKS]
        if unknown:
            bad("talks", f"has {unknown[0]!r}; use some of: {', '.join(TALKS)}")
        else:
            out["talks"] = tuple(dict.fromkeys(talks))
    return out
