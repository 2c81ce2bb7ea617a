"""Adding a skill is one declaration: a `sit` skill, made here over a world command made
here, reaches the model's tools, the play script's candidates and the eval's fits."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from pydantic import BaseModel, Field

from game.agent.facts import TriggerFacts
from game.agent.providers.base import ProviderRequest
from game.agent.providers.local.script import Call
from game.agent.tools import ToolContext, ToolResult
from game.eval.figures import call_fits
from game.eval.scenarios import Fit
from game.harness import Call as MadeCall
from game.harness import TurnReport
from game.npc.play.writer import script_job
from game.npc.skills import SKILLS, Skill, Targets, build_registry
from game.npc.skills.base import do, pretty
from game.world.commands import Waiter
from game.world.entities import Npc
from game.world.outcomes import Outcome, Success
from game.world.world import Command, World

from .test_play_script import NPC, SENSED


@dataclass(frozen=True)
class Sit(Command):
    """Sit down by a place (the world command the skill sends)."""

    npc_id: str
    by: str

    def apply(self, world: World, npc: Npc, fut: Waiter) -> Outcome | None:
        """Sitting needs nothing of the map here."""
        return Success(f"you sit by the {pretty(self.by)}")


class SitArgs(BaseModel):
    """Sit down by a place."""

    by: str = Field(..., min_length=1, description="The place to sit by.")


async def sit(ctx: ToolContext, args: SitArgs) -> ToolResult:
    """Sit; the result comes once seated."""
    return await do(ctx, Sit(ctx.npc_id, args.by))


def _offers(targets: Targets) -> list[dict[str, Any]]:
    return [{"by": arg} for _, arg in targets]


SIT = Skill(
    "sit",
    "Sit down by a place.",
    lambda: SitArgs,
    sit,
    timeout_s=5.0,
    does=lambda args: f"sits by the {pretty(str(args.get('by', '')))}",
    offers=_offers,
    acts=True,
    judged=frozenset({"by"}),
)


@pytest.fixture
def with_sit(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setitem(SKILLS, SIT.name, SIT)
    yield


def test_an_added_skill_is_a_tool_models_are_offered(with_sit: None) -> None:
    specs = {spec.name: spec for spec in build_registry().specs()}
    assert SIT.name in specs
    assert "by" in specs[SIT.name].parameters["properties"]


def test_an_added_skill_is_a_candidate_of_the_play_script(with_sit: None) -> None:
    idle = TriggerFacts(kind="idle", text="time passes", sensed=SENSED)
    tools = build_registry(with_ask=False).specs()
    job = script_job(ProviderRequest(system="", messages=[], tools=tools, npc=NPC, trigger=idle))
    assert job is not None
    sits = [o for o in job.options if o.calls == [Call(tool=SIT.name, args={"by": "well"})]]
    assert [o.text for o in sits] == [" [sits by the well]:"]


def test_an_added_skill_may_be_judged_by_a_scenario(with_sit: None) -> None:
    fit = Fit(skill=SIT.name, args={"by": "well"})
    turn = TurnReport(kind="player", npc_id="brenna")
    names = {"well": ["well"]}
    assert call_fits(MadeCall(SIT.name, '{"by": "well"}', result="ok"), fit, turn, names)
    assert not call_fits(MadeCall(SIT.name, '{"by": "forge"}', result="ok"), fit, turn, names)
    with pytest.raises(ValueError, match="takes no argument"):
        Fit(skill=SIT.name, args={"on": "well"})


def test_without_it_there_is_no_such_skill() -> None:
    assert SIT.name not in {spec.name for spec in build_registry().specs()}
    with pytest.raises(ValueError, match="no skill"):
        Fit(skill=SIT.name)
