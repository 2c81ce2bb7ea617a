"""The NPC skills, each declared once: move, say, look, emote, wait, ask, and the board's
read_board and post_to_board.

A skill is a module of this package with a `SKILL`: its name (said only there: code names
a skill by its declaration, `MOVE.name`, and calls it as `MOVE.call(to="well")`, a
`SkillCall` its argument model validated), its argument model, its handler (a
world command, awaited until the world has done it), whether an argument is speech (the
text that streams into the bubble), how the play script writes a call in brackets, what
it offers the play script as candidate calls, whether it takes time, and which arguments
the eval's fits may name. Everything else reads `SKILLS`: the tool registry the runtime
runs (`build_registry`), the play script (`game.npc.play`), the persona brain, the eval's
validation, the memory of what an NPC said, the help and inspector text. Adding a skill is
one module here (listed in `SKILLS`) and its world command.
"""

from __future__ import annotations

from game.agent.tools import ToolRegistry
from game.npc.skills.ask import SKILL as ASK
from game.npc.skills.base import Skill, SkillCall, SkillDeps, Targets
from game.npc.skills.board import POST as POST_TO_BOARD
from game.npc.skills.board import READ as READ_BOARD
from game.npc.skills.emote import SKILL as EMOTE
from game.npc.skills.look import SKILL as LOOK
from game.npc.skills.move import SKILL as MOVE
from game.npc.skills.say import SKILL as SAY
from game.npc.skills.wait import SKILL as WAIT

__all__ = [
    "ASK",
    "EMOTE",
    "LOOK",
    "MOVE",
    "POST_TO_BOARD",
    "READ_BOARD",
    "SAY",
    "SKILLS",
    "WAIT",
    "Skill",
    "SkillCall",
    "SkillDeps",
    "Targets",
    "build_registry",
    "spoken",
]

# Every skill, in the order the model is shown them.
SKILLS: dict[str, Skill] = {
    s.name: s for s in (MOVE, SAY, LOOK, EMOTE, WAIT, ASK, READ_BOARD, POST_TO_BOARD)
}


def build_registry(*, with_ask: bool = True) -> ToolRegistry:
    """Every skill (`ask` only if asked for) as tools, ready for the agent runtime."""
    registry = ToolRegistry()
    for skill in SKILLS.values():
        if with_ask or not skill.optional:
            registry.register(skill.tool())
    return registry


def spoken() -> dict[str, str]:
    """The skills that speak, and the argument each says out loud: {"say": "text", ...}."""
    return {name: skill.speech for name, skill in SKILLS.items() if skill.speech}
