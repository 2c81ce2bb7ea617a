"""Prompts, grammars and the model file, without running the model."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path

import pytest

from game.agent.providers.base import Message, ToolCall, ToolSpec
from game.agent.providers.local.hub import resolve_model_path
from game.agent.providers.local.model import (
    LocalModelError,
    ensure_default_model,
    file_sha256,
    text_progress,
)
from game.agent.providers.local.worker.prompt import (
    TOOL_PREFIX,
    ArgsScanner,
    GrammarError,
    allow_done,
    build_tool_grammar,
    describe_schema,
    prepare_schema,
    render_chat_messages,
    render_completion_prompt,
)

from .conftest import npc_request, require_local_extra, skill_specs

ROOT = Path(__file__).resolve().parents[2]


def test_prepare_schema_inlines_refs_and_bounds() -> None:
    move = prepare_schema(skill_specs("move")[0].parameters)
    assert move["properties"]["direction"]["anyOf"][0]["enum"] == ["up", "down", "left", "right"]
    assert move["properties"]["steps"] == {"enum": [1, 2, 3, 4, 5]}
    wait = prepare_schema(skill_specs("wait")[0].parameters)
    assert wait["properties"]["seconds"] == {"enum": list(range(1, 11))}
    compass = {  # an enum behind a $ref, as pydantic writes a StrEnum
        "$defs": {"Compass": {"enum": ["north", "south"], "type": "string"}},
        "type": "object",
        "properties": {"way": {"$ref": "#/$defs/Compass"}},
    }
    inlined = prepare_schema(compass)
    assert inlined["properties"]["way"]["enum"] == ["north", "south"]
    assert '"$defs"' not in json.dumps(inlined) and '"$ref"' not in json.dumps(inlined)
    free = prepare_schema({"type": "object", "properties": {"x": {"type": "string"}}})
    assert free["properties"]["x"]["maxLength"] == 200
    with pytest.raises(GrammarError):
        prepare_schema({"type": "object", "properties": {"x": {"$ref": "#/$defs/Nope"}}})


def test_grammar_names_first_and_done_only_when_allowed() -> None:
    require_local_extra()
    tools = skill_specs()
    grammar = build_tool_grammar(tools, with_done=False)
    root = next(line for line in grammar.splitlines() if line.startswith("root ::="))
    assert "tool-done" not in root and root.count("|") == len(tools) - 1
    say = [t.name for t in tools].index("say")
    assert f'tool{say} ::= "say\\", \\"arguments\\": " tool{say}-args' in grammar
    assert "tool-done" in build_tool_grammar(tools, with_done=True)
    with pytest.raises(GrammarError):
        build_tool_grammar(
            [ToolSpec(name='bad"name', description="", parameters={})], with_done=False
        )


def test_strings_in_the_grammar_hold_no_control_characters() -> None:
    grammar = build_tool_grammar(skill_specs("say"), with_done=False)
    rules = dict(line.split(" ::= ", 1) for line in grammar.splitlines() if " ::= " in line)
    # llama-cpp-python's own rule is [^"\\] | ..., which lets a raw newline into a string.
    assert rules["char"] == r'[^"\\\x7F\x00-\x1F] | "\\" ["\\/]'


GRAMMAR_PROBE = """
import ctypes, json, sys
import llama_cpp
from llama_cpp import llama_cpp as C
from game.agent.providers.local.worker.prompt import build_tool_grammar
from tests.local.conftest import skill_specs

llm = llama_cpp.Llama(model_path=sys.argv[1], vocab_only=True, verbose=False)
grammar = build_tool_grammar(skill_specs("say"), with_done=False).encode()
smpl = C.llama_sampler_init_grammar(llm._model.vocab, grammar, b"root")
one = (C.llama_token_data * 1)()
cands = C.llama_token_data_array(
    data=ctypes.cast(one, C.llama_token_data_p), size=1, selected=-1, sorted=False
)

def valid(sampler, token):
    one[0].id, one[0].logit, one[0].p = token, 0.0, 0.0
    cands.size, cands.selected = 1, -1
    C.llama_sampler_apply(sampler, ctypes.byref(cands))
    return one[0].logit != float("-inf")

def takes(sampler, text):
    for token in llm.tokenize(text.encode(), False, False):
        if not valid(sampler, token):
            return False
        C.llama_sampler_accept(sampler, token)
    return True

assert takes(smpl, 'say", "arguments": { "text": "Hello')
answers = {}
for text in ("\\n", "\\t", " there", "\\\\n", "\\\\u000a", '\\\\"'):
    answers[text] = takes(C.llama_sampler_clone(smpl), text)
print(json.dumps(answers))
"""


def test_the_grammar_refuses_a_line_break_inside_a_string(model_path: Path) -> None:
    # llama.cpp's own grammar engine judges, in a process of its own (never this one).
    out = subprocess.run(
        [sys.executable, "-c", GRAMMAR_PROBE, str(model_path)],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert out.returncode == 0, out.stderr[-2000:]
    answers = json.loads(out.stdout.strip().splitlines()[-1])
    # A raw line break, a tab, or an escape that decodes to one: refused. Words and \": fine.
    assert answers == {
        "\n": False,
        "\t": False,
        " there": True,
        "\\n": False,
        "\\u000a": False,
        '\\"': True,
    }


def test_allow_done_after_a_tool_result() -> None:
    request = npc_request("Hi")
    assert not allow_done(request)
    request.messages.append(Message(role="assistant", tool_calls=[ToolCall(id="a", name="say")]))
    request.messages.append(Message(role="tool", tool_call_id="a", content="ok"))
    assert allow_done(request)
    request.options.tool_choice = "required"
    assert not allow_done(request)


def test_completion_prompt_has_persona_examples_and_cue() -> None:
    history = [
        Message(role="user", content='Player says: """Hi"""'),
        Message(
            role="assistant",
            tool_calls=[ToolCall(id="c", name="say", arguments='{"text": "Hello!"}')],
        ),
        Message(role="tool", tool_call_id="c", content="blocked", is_error=True),
    ]
    request = npc_request("Where is the well?", history=history)
    prompt = render_completion_prompt(request, tool_mode=True)
    assert prompt.startswith(request.system)
    assert "Good morning, dear! Fresh bread today!" in prompt  # few-shot from the greeting
    assert 'Mara: {"name": "say", "arguments": {"text": "Hello!"}}' in prompt
    assert "Error: blocked" in prompt
    assert prompt.endswith('Player says: """Where is the well?"""\nMara: ' + TOOL_PREFIX)
    # The stable head (system, skills, examples) is identical from turn to turn.
    later = render_completion_prompt(npc_request("Thanks!", history=history * 2), tool_mode=True)
    head = prompt.split("Conversation:")[0]
    assert later.startswith(head)
    text = render_completion_prompt(npc_request("Hi", []), tool_mode=False)
    assert text.endswith("Mara:") and '{"name"' not in text


def test_describe_schema_is_compact() -> None:
    say = describe_schema(prepare_schema(skill_specs("say")[0].parameters))
    assert say.startswith('{"text": string (at most 200 characters)')
    assert '"target"' in say and "(optional)" in say


def test_chat_messages_alternate() -> None:
    history = [
        Message(role="assistant", content="Hm."),
        Message(role="user", content="a"),
        Message(role="user", content="b"),
        Message(role="assistant", tool_calls=[ToolCall(id="c", name="say", arguments="{}")]),
        Message(role="tool", tool_call_id="c", content="ok"),
    ]
    msgs = render_chat_messages(npc_request("c", history=history), tool_mode=True)
    roles = [m["role"] for m in msgs]
    assert roles[0] == "system"
    assert roles[1:] == ["user", "assistant", "user", "assistant", "user"]
    assert msgs[-1]["content"].startswith("Result: ok")


def test_args_scanner_stops_at_the_closing_brace() -> None:
    scanner = ArgsScanner()
    pieces = ['{"text": "a } b', ' \\" {', '"', ', "n": [1, {"x": 2}]', "}}", " ignored"]
    out = "".join(scanner.feed(p) for p in pieces)
    assert scanner.done
    assert out == scanner.text == '{"text": "a } b \\" {", "n": [1, {"x": 2}]}'
    assert json.loads(out)["n"] == [1, {"x": 2}]


def test_model_assembly_verifies_and_repairs(tmp_path: Path) -> None:
    require_local_extra()
    seen: list[tuple[float, str]] = []
    path = ensure_default_model(tmp_path, lambda f, m: seen.append((f, m)))
    assert seen[-1][0] == 1.0 and any("assembling" in m for _, m in seen)
    digest = file_sha256(path)
    # A second start trusts the stamp and does not re-read the file.
    seen.clear()
    assert ensure_default_model(tmp_path, lambda f, m: seen.append((f, m))) == path
    assert [m for _, m in seen] == [f"model ready: {path.name}"]
    # A truncated (partial) file is detected and assembled again.
    with path.open("r+b") as f:
        f.truncate(1000)
    ensure_default_model(tmp_path)
    assert file_sha256(path) == digest
    assert not list(tmp_path.glob("*.tmp"))  # no temporary file left behind


def test_explicit_missing_model_path() -> None:
    with pytest.raises(LocalModelError, match="not found"):
        resolve_model_path(Path("/nonexistent/model.gguf"))


def test_text_progress_bar() -> None:
    out = io.StringIO()
    show = text_progress(out, width=10)
    show(0.0, "assembling")
    show(0.5, "assembling")
    show(0.5, "assembling")  # same percent: not redrawn
    show(1.0, "ready")
    text = out.getvalue()
    assert text.count("\r") == 3
    assert "[#####.....]  50% assembling" in text
    assert text.endswith("\n") and "[##########] 100% ready" in text
