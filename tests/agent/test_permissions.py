"""The permission gate: allow, deny, ask through an approver, ask-once."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from game.agent.permissions import PermissionGate


class Approver:
    """Answers with `answer` and records who asked for what."""

    def __init__(self, answer: bool = True) -> None:
        self.answer = answer
        self.asked: list[tuple[str, str, dict[str, Any]]] = []

    async def __call__(self, npc_id: str, tool: str, args: dict[str, Any]) -> bool:
        self.asked.append((npc_id, tool, args))
        return self.answer


async def test_allow_and_deny_policies_and_the_default() -> None:
    gate = PermissionGate({"say": "allow", "steal": "deny"}, default="deny")
    assert (await gate.check("mira", "say", {})).allowed
    denied = await gate.check("mira", "steal", {})
    assert not denied.allowed and "steal" in denied.reason
    assert not (await gate.check("mira", "other", {})).allowed
    assert (await PermissionGate().check("mira", "anything", {})).allowed


async def test_ask_without_an_approver_is_a_denial() -> None:
    decision = await PermissionGate({"give_item": "confirm"}).check("mira", "give_item", {})
    assert not decision.allowed
    assert not decision.asked
    assert "approv" in decision.reason


@pytest.mark.parametrize("answer", [True, False])
async def test_ask_once_per_npc_and_tool(answer: bool) -> None:
    approver = Approver(answer)
    gate = PermissionGate({"give_item": "confirm"}, approver=approver)
    first = await gate.check("mira", "give_item", {"item": "bread"}, slot="s1")
    again = await gate.check("mira", "give_item", {"item": "cake"}, slot="s1")
    assert first.allowed is answer and first.asked
    assert again.allowed is answer and not again.asked
    assert approver.asked == [("mira", "give_item", {"item": "bread"})]
    # Another NPC, or another slot, is asked separately.
    await gate.check("bram", "give_item", {}, slot="s1")
    await gate.check("mira", "give_item", {}, slot="s2")
    assert len(approver.asked) == 3


async def test_concurrent_asks_reach_the_player_once() -> None:
    release = asyncio.Event()
    calls = 0

    async def slow(npc_id: str, tool: str, args: dict[str, Any]) -> bool:
        nonlocal calls
        calls += 1
        await release.wait()
        return True

    gate = PermissionGate({"give_item": "confirm"}, approver=slow)
    first = asyncio.create_task(gate.check("mira", "give_item", {}))
    second = asyncio.create_task(gate.check("mira", "give_item", {}))
    await asyncio.sleep(0)  # let both reach the gate
    release.set()
    decisions = await asyncio.gather(first, second)
    assert calls == 1
    assert all(d.allowed for d in decisions)


async def test_a_failing_approver_means_deny_and_is_not_remembered() -> None:
    attempts = 0

    async def broken(npc_id: str, tool: str, args: dict[str, Any]) -> bool:
        nonlocal attempts
        attempts += 1
        raise RuntimeError("dialog crashed")

    gate = PermissionGate({"give_item": "confirm"}, approver=broken)
    decision = await gate.check("mira", "give_item", {})
    assert not decision.allowed and "dialog crashed" in decision.reason
    await gate.check("mira", "give_item", {})
    assert attempts == 2


async def test_forget_and_set_policy_clear_remembered_answers() -> None:
    approver = Approver(True)
    gate = PermissionGate({"give_item": "confirm"}, approver=approver)
    await gate.check("mira", "give_item", {})
    gate.forget(npc_id="mira")
    await gate.check("mira", "give_item", {})
    assert len(approver.asked) == 2
    gate.set_policy("give_item", "deny")
    assert not (await gate.check("mira", "give_item", {})).allowed
    gate.set_policy("give_item", "confirm")
    await gate.check("mira", "give_item", {})
    assert len(approver.asked) == 3


def test_unknown_policies_are_refused() -> None:
    with pytest.raises(ValueError, match="maybe"):
        PermissionGate({"say": "maybe"})  # type: ignore[dict-item]
