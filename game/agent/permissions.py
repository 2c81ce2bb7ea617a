"""The permission gate: a policy per tool (`allow`, `deny`, `confirm`) and an async approver.

`confirm` goes through the approver (the player) before the tool runs; its answer is
remembered per (slot, NPC, tool) for the session (ask-once). Without an approver, `confirm`
means deny. The runner logs every decision as a `permission.decision` event.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

__all__ = ["Approver", "Decision", "PermissionGate", "Policy"]

log = logging.getLogger(__name__)

Policy = Literal["allow", "deny", "confirm"]
Approver = Callable[[str, str, dict[str, Any]], Awaitable[bool]]
_POLICIES = ("allow", "deny", "confirm")


@dataclass(frozen=True)
class Decision:
    """The gate's answer: allowed or not, why, and whether the approver was asked now."""

    allowed: bool
    reason: str
    asked: bool = False


class PermissionGate:
    """Decides, per tool, whether a call may run."""

    def __init__(
        self,
        policies: dict[str, Policy] | None = None,
        default: Policy = "allow",
        approver: Approver | None = None,
    ) -> None:
        _check_policy(default)
        self.default: Policy = default
        self.approver = approver
        self._policies: dict[str, Policy] = {}
        self._answers: dict[tuple[str, str, str], bool] = {}
        self._asking: dict[tuple[str, str, str], asyncio.Lock] = {}
        for tool, policy in (policies or {}).items():
            self.set_policy(tool, policy)

    def policy(self, tool: str) -> Policy:
        """The policy that applies to `tool`."""
        return self._policies.get(tool, self.default)

    def set_policy(self, tool: str, policy: Policy) -> None:
        """Set one tool's policy (forgets remembered answers for it)."""
        _check_policy(policy)
        self._policies[tool] = policy
        for key in [k for k in self._answers if k[2] == tool]:
            del self._answers[key]

    def forget(self, *, slot: str | None = None, npc_id: str | None = None) -> None:
        """Forget remembered `confirm` answers (all, or one slot's, or one NPC's)."""
        for key in list(self._answers):
            if (slot is None or key[0] == slot) and (npc_id is None or key[1] == npc_id):
                del self._answers[key]

    async def check(
        self, npc_id: str, tool: str, args: dict[str, Any], *, slot: str = ""
    ) -> Decision:
        """Decide whether `npc_id` may call `tool` with `args` now."""
        policy = self.policy(tool)
        if policy == "allow":
            return Decision(True, "allowed by policy")
        if policy == "deny":
            return Decision(False, f"the tool {tool!r} is not allowed")
        key = (slot, npc_id, tool)
        # One question at a time per key, so concurrent calls do not ask the player twice.
        lock = self._asking.setdefault(key, asyncio.Lock())
        async with lock:
            remembered = self._answers.get(key)
            if remembered is not None:
                verdict = "approved" if remembered else "refused"
                return Decision(remembered, f"{verdict} earlier this session")
            if self.approver is None:
                return Decision(False, f"{tool!r} needs approval and no one can approve it")
            try:
                answer = bool(await self.approver(npc_id, tool, args))
            except Exception as exc:  # an approver bug must not crash the turn
                log.exception("approver failed for %s/%s", npc_id, tool)
                return Decision(False, f"approval failed: {type(exc).__name__}: {exc}", True)
            self._answers[key] = answer
            return Decision(
                answer, "approved by the player" if answer else "refused by the player", True
            )


def _check_policy(policy: str) -> None:
    if policy not in _POLICIES:
        raise ValueError(f"invalid policy {policy!r}: use one of {', '.join(_POLICIES)}")
