"""A skill and a gesture are each declared once: one more of each, registered here (as a
game maker's module would), shows up in the tool specs, the play script's candidates, the
reader of the player's words and the eval's validation, with none of those touched."""

from __future__ import annotations

from typing import Any

import pytest
from pydantic import BaseModel, ValidationError

from game import gestures
from game.agent.facts import TriggerFacts
from game.agent.providers.base import Message, ProviderRequest
from game.agent.tools import ToolContext
from game.eval.scenarios import Fit, action_skills
from game.gestures import Gesture
from game.npc import skills
from game.npc.facts import PlaceFact, SeenFact, SensedFacts, VillagerFacts
from game.npc.play.script import build_script
from game.npc.skills import Skill, build_registry


class SitArgs(BaseModel):
    """Sit down for a while."""

    seconds: float = 5.0


async def _sit(ctx: ToolContext, args: SitArgs) -> str:
    return "you sit down"


SIT = Skill(
    "sit",
    "Sit down for a while.",
    lambda: SitArgs,
    _sit,
    timeout_s=10.0,
    does=lambda args: "sits down",
    offers=lambda targets: [{"seconds": 5.0}],
    asks=r"sit(?: down)?|take a seat|have a seat",
)
BOW = Gesture("bow", "bows", r"\bbow(?:s|ing)?\b")


@pytest.fixture
def sixth(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(skills.SKILLS, "sit", SIT)
    monkeypatch.setitem(gestures.GESTURES, "bow", BOW)


def _request(line: str) -> ProviderRequest:
    npc = VillagerFacts(
        npc_id="tobin",
        name="Tobin",
        persona="Tobin is the baker. He bakes bread before dawn.",
        places=[PlaceFact(name="bakery", description="Tobin's bakery.")],
    )
    trigger = TriggerFacts(
        kind="player_message",
        text=line,
        source="player",
        said=line,
        sensed=SensedFacts(
            place="bakery",
            nearby=[
                SeenFact(entity_id="player", name="Ada", distance=1, direction="S", activity="")
            ],
        ),
    )
    return ProviderRequest(
        system="",
        messages=[Message(role="user", content=line, trigger=trigger)],
        tools=build_registry().specs(),
        npc=npc,
        trigger=trigger,
    )


def _offered(request: ProviderRequest) -> list[tuple[str, dict[str, Any]]]:
    script = build_script(request)
    return [(c.tool, c.args) for c in script.candidates(request.tools)]


@pytest.mark.usefixtures("sixth")
def test_a_sixth_skill_and_gesture_reach_the_tool_specs() -> None:
    specs = {spec.name: spec for spec in build_registry().specs()}
    assert "sit" in specs and specs["sit"].description == "Sit down for a while."
    emote = specs["emote"].parameters["properties"]["name"]
    assert emote["enum"][-1] == "bow" and "bow" in specs["emote"].description


@pytest.mark.usefixtures("sixth")
def test_a_sixth_skill_and_gesture_are_play_script_candidates_and_asked_for() -> None:
    offered = _offered(_request("Hello!"))
    assert ("sit", {"seconds": 5.0}) in offered
    assert ("emote", {"name": "bow"}) in offered
    asked = build_script(_request("Would you take a seat with me?")).pool(build_registry().specs())
    assert [c.label for c in asked] == ["", "sits down"]
    bowed = build_script(_request("Could you bow for me?")).pool(build_registry().specs())
    assert "bows" in [c.label for c in bowed]


@pytest.mark.usefixtures("sixth")
def test_a_sixth_skill_and_gesture_pass_the_eval_validation() -> None:
    assert Fit(skill="sit").skill == "sit"
    assert "sit" in action_skills()
    assert Fit(skill="emote", args={"name": ["bow", "wave"]}).accepted("name") == ["bow", "wave"]


def test_without_them_the_eval_refuses_both(monkeypatch: pytest.MonkeyPatch) -> None:
    name = "sit"
    monkeypatch.delitem(skills.SKILLS, name, raising=False)  # a game that has one: not here
    with pytest.raises(ValidationError, match=f"no skill '{name}'"):
        Fit(skill=name)
    with pytest.raises(ValidationError, match="emote name must be one of"):
        Fit(skill="emote", args={"name": "bow"})
    offered = _offered(_request("Hello!"))
    assert not [o for o in offered if o[0] == name or o[1].get("name") == "bow"]
