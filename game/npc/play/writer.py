"""One step of a turn, written as the worker's job: the document, the options, the line.

`script_job` is what the local provider is given to play a request with the bundled base
model (`make_local` in `game.village` hands it over): the game writes the script and the
choices here, the worker only scores and samples (`game.agent.providers.local.script`).
A model with a chat template plays the request itself; `chat_request` gives it the same
notes the script's line leans on, and ends its turn once it has said its line.
"""

from __future__ import annotations

import re

from game.agent.providers.base import ProviderRequest
from game.agent.providers.local.script import Call, LineSpec, Option, ScriptJob
from game.npc.play.scene import EXAMPLE_NAMES, EXAMPLES, MAX_LINE_CHARS
from game.npc.play.script import GESTURE_MIN, Script, applies, build_script, line_tool
from game.npc.reading.kinds import Kind
from game.npc.skills import SKILLS

__all__ = ["EXAMPLES", "chat_request", "script_job"]

# Words a villager has no use for: the examples' people, and talk of AIs and prompts.
NOT_SAID = (
    *EXAMPLE_NAMES,
    *"AI A.I assistant chatbot prompt instruction program robot bot model system JSON code "
    "language computer machine software artificial digital internet".split(),
)
LINE_TEMPERATURE = 0.4  # at most: a small model wanders off the scene when hotter
# The first words of a yes: never the start of the answer to "are you a program?".
YES = ("Yes", "Yeah", "Yep", "Aye", "Sure", "Indeed", "Of course")
NO = ("No", "Nope", "Nah", "Never")
# An NPC speaking of itself does not start with he or she ("She's a good blacksmith.").
THIRD = ("She", "He", "She's", "He's")
# The kinds of line the NPC answers of itself when they name nothing else.
_OF_ITSELF = frozenset({Kind.SELF, Kind.CHAT, Kind.QUESTION, Kind.HOW})


def script_job(request: ProviderRequest) -> ScriptJob | None:
    """The worker's job for this step of a turn (or for reading it ahead: `options.prime`);
    None when the script protocol does not play it (no facts, no line skill)."""
    if not applies(request):
        return None
    script = build_script(request)
    key = request.npc_id or ""
    if request.options.prime:  # read the document up to the newest line (still being typed)
        return ScriptJob(key=key, prefix=EXAMPLES, prompt=_after_prefix(script.head), prime=True)
    if script.done():
        return ScriptJob(key=key, prefix=EXAMPLES, prompt="", finished=True)
    line = _line(script)
    if script.greets():
        return ScriptJob(key=key, prefix=EXAMPLES, prompt="", say=script.greeting, line=line)
    options: list[Option] = []
    if script.may_act():
        options = [
            Option(
                text=c.bracket,
                calls=[Call(tool=c.tool, args=c.args)] if c.call else [],
                line_first=c.call is not None and c.call.skill.takes_time,
            )
            for c in script.pool(request.tools)
        ]
    idle = script.kind == "idle"
    return ScriptJob(
        key=key,
        prefix=EXAMPLES,
        prompt=_after_prefix(script.prompt),
        neutral=None if idle else _after_prefix(script.neutral),
        options=options,
        choose="sample" if idle else "lift",
        min_lift=None if script.asked_now() else GESTURE_MIN,
        after=f" [{script.doing}]:" if script.doing else ":",
        line=line,
        temperature=min(request.temperature, LINE_TEMPERATURE),
    )


def _after_prefix(text: str) -> str:
    assert text.startswith(EXAMPLES)
    return text[len(EXAMPLES) :]


def _banned_first(script: Script) -> list[str]:
    """The words the line may not start with: no yes to "are you a program?"; no bare yes
    or no when the persona decides the answer (the line says the persona's side instead);
    no no when it does what was asked; no he or she when it speaks of itself."""
    banned: list[str] = []
    intent = script.intent()
    if script.asked_if_machine():
        banned += YES
    if script.persona_decides():
        banned += [*YES, *NO]
    elif script.asked_now() and (script.doing or script.may_act()):
        banned += NO
    if intent.kind in _OF_ITSELF and intent.target is None:
        banned += THIRD
    return list(dict.fromkeys(banned))


def _line(script: Script) -> LineSpec:
    """How this step's line is sampled: what not to repeat (what it said, and the line it
    answers), the notes' words to lean on, and no yes to "are you a program?"."""
    # Nor the line it answers: a small model echoes it ("I'd like a blanket in deep blue.")
    avoid = [*script.earlier_replies, *([script.greeting] if script.greeting else [])]
    avoid += [script.request] if script.request else []
    return LineSpec(
        tool=line_tool(),
        field=SKILLS[line_tool()].speech or "text",
        extra={"target": script.speaker} if script.speaker else {},
        avoid=avoid,
        boost=sorted(set(re.findall(r"[A-Za-z']{4,}", script.notes))),
        banned_first=_banned_first(script),
        banned_words=list(NOT_SAID),
        max_chars=MAX_LINE_CHARS,
        lead=script.lead,
        own=script.npc.persona,
    )


def chat_request(request: ProviderRequest) -> ProviderRequest | None:
    """What a model with a chat template is asked for this step: the request, with the
    notes the script would give its line (what the NPC knows that the newest line is
    about) after that line, so the prompt before it stays as the turn before read it;
    None when the turn is over (it said its line), as the script plays a turn."""
    if request.options.prime or not applies(request):
        return request
    script = build_script(request)
    if script.done():
        return None
    messages = list(request.messages)
    at = next((i for i in range(len(messages) - 1, -1, -1) if messages[i].role == "user"), None)
    if not script.notes or at is None:
        return request
    noted = messages[at].content.rstrip() + f"\n(Note: {script.notes})"
    messages[at] = messages[at].model_copy(update={"content": noted})
    return request.model_copy(update={"messages": messages})
