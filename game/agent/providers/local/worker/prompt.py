"""Prompts and grammars for the local model: pure text in, pure text out (no llama.cpp).

A tool call is generated as the tail of `{"name": "<tool>", "arguments": {...}}`: the prompt
ends with `{"name": "` and the grammar starts at the tool name, so the name is known before
any argument streams. The grammar is a GBNF union over the tools, each alternative being
`<name>", "arguments": <that tool's argument schema>`, built with llama-cpp-python's JSON
schema converter. After a tool result the model may also end its turn with
`{"name": "done"}` (the `done` pseudo-tool: "done", or "finish" if a real tool is called so).

Two prompt shapes:
- completion (a base model, no chat template): a transcript with few-shot examples built
  from the NPC's facts in `request.npc` (name, greeting);
- chat (the GGUF has `tokenizer.chat_template`): the template renders alternating turns.

Both put the stable parts (system prompt, tool list, examples) first so consecutive turns of
one NPC share the longest possible prefix (the KV cache of that prefix is reused).
"""

from __future__ import annotations

import importlib.util
import json
import math
import re
from pathlib import Path
from typing import Any

from game.agent.providers.base import Message, ProviderRequest, ToolSpec
from game.errors import GameError

__all__ = [
    "ARGS_WRAP",
    "TOOL_PREFIX",
    "ArgsScanner",
    "GrammarError",
    "allow_done",
    "build_tool_grammar",
    "describe_schema",
    "done_name",
    "example_arguments",
    "prepare_schema",
    "render_chat_messages",
    "render_completion_prompt",
]

TOOL_PREFIX = '{"name": "'
# What the grammar forces between the tool name and the first character of its arguments.
ARGS_WRAP = '", "arguments": {'
DEFAULT_MAX_STRING = 200
MAX_ENUM_RANGE = 1000
_NAME_RE = re.compile(r"[A-Za-z0-9_.\-]{1,64}")


class GrammarError(GameError, ValueError):
    """A tool whose name or schema cannot be turned into a grammar."""


# --- schemas -----------------------------------------------------------------------------


def _inline_refs(node: Any, defs: dict[str, Any], depth: int = 0) -> Any:
    if depth > 32:
        raise GrammarError("tool schema is too deep or recursive")
    if isinstance(node, list):
        return [_inline_refs(x, defs, depth + 1) for x in node]
    if not isinstance(node, dict):
        return node
    ref = node.get("$ref")
    if isinstance(ref, str):
        key = ref.rsplit("/", 1)[-1]
        if not ref.startswith("#/") or key not in defs:
            raise GrammarError(f"unsupported $ref {ref!r} in tool schema")
        merged = {**defs[key], **{k: v for k, v in node.items() if k != "$ref"}}
        return _inline_refs(merged, defs, depth + 1)
    return {
        k: _inline_refs(v, defs, depth + 1)
        for k, v in node.items()
        if k not in ("$defs", "definitions")
    }


def _bounded_numbers(node: Any) -> Any:
    """Constrain strings and bounded numbers the converter would leave open."""
    if isinstance(node, list):
        return [_bounded_numbers(x) for x in node]
    if not isinstance(node, dict):
        return node
    out = {k: _bounded_numbers(v) for k, v in node.items()}
    kind = out.get("type")
    if kind in ("integer", "number") and "enum" not in out and "const" not in out:
        lo, hi = out.get("minimum"), out.get("maximum")
        if "exclusiveMinimum" in out and isinstance(out["exclusiveMinimum"], int | float):
            lo = math.floor(out["exclusiveMinimum"]) + 1
        if "exclusiveMaximum" in out and isinstance(out["exclusiveMaximum"], int | float):
            hi = math.ceil(out["exclusiveMaximum"]) - 1
        if isinstance(lo, int | float) and isinstance(hi, int | float):
            first, last = math.ceil(lo), math.floor(hi)
            if first <= last and last - first < MAX_ENUM_RANGE:
                # JSON schema converter ignores min/max: an enum keeps the value in range.
                out = {"enum": list(range(first, last + 1))}
    elif (
        kind == "string"
        and "maxLength" not in out
        and not {"enum", "const", "pattern", "format"} & out.keys()
    ):
        out["maxLength"] = DEFAULT_MAX_STRING
    return out


def prepare_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """A tool's argument schema ready for the grammar: refs inlined, bounds made explicit."""
    defs = {**schema.get("definitions", {}), **schema.get("$defs", {})}
    inlined = _inline_refs(schema, defs)
    if not isinstance(inlined, dict):
        raise GrammarError("a tool schema must be an object")
    if inlined.get("type", "object") != "object":
        raise GrammarError("a tool's arguments must be a JSON object")
    inlined["type"] = "object"
    inlined.setdefault("properties", {})
    prepared = _bounded_numbers(inlined)
    assert isinstance(prepared, dict)
    return prepared


def done_name(tools: list[ToolSpec]) -> str:
    """The name of the end-of-turn pseudo-tool (never one of the real tools)."""
    names = {t.name for t in tools}
    for candidate in ("done", "finish", "end_turn"):
        if candidate not in names:
            return candidate
    raise GrammarError("no free name for the end-of-turn pseudo-tool")


def allow_done(request: ProviderRequest) -> bool:
    """The model may end its turn only after it acted (the last message is a tool result)."""
    choice = request.options.tool_choice
    if choice == "required":
        return False
    if choice == "auto":
        return True
    return bool(request.messages) and request.messages[-1].role == "tool"


def _schema_converter() -> Any:
    """llama-cpp-python's JSON-schema-to-GBNF converter, without loading llama.cpp itself.

    `llama_cpp.llama_grammar` is plain Python, but importing it runs the package's
    `__init__`, which loads the native library; the game process never does that.
    """
    global _CONVERTER
    if _CONVERTER is None:
        spec = importlib.util.find_spec("llama_cpp")
        folders = list(spec.submodule_search_locations or []) if spec is not None else []
        if not folders:
            raise GrammarError("llama-cpp-python is not installed")
        path = Path(folders[0]) / "llama_grammar.py"
        loader = importlib.util.spec_from_file_location("_npc_village_llama_grammar", path)
        if loader is None or loader.loader is None:
            raise GrammarError(f"cannot read {path}")
        module = importlib.util.module_from_spec(loader)
        loader.loader.exec_module(module)
        # Its `char` lets raw control characters into strings (a newline in a `say` is
        # then not JSON); ours keeps strings on one line, as llama.cpp's own converter does.
        module.PRIMITIVE_RULES["char"] = module.BuiltinRule(STRING_CHAR, [])
        _CONVERTER = module.SchemaConverter
    return _CONVERTER


_CONVERTER: Any = None
# Any character but a quote, a backslash or a control character; escapes only for a quote,
# a backslash and a slash, so a string never decodes to a line break either.
STRING_CHAR = r'[^"\\\x7F\x00-\x1F] | "\\" ["\\/]'


def build_tool_grammar(tools: list[ToolSpec], *, with_done: bool) -> str:
    """GBNF for `<name>", "arguments": {...}` over `tools` (plus `done"}` if allowed)."""
    SchemaConverter = _schema_converter()
    if not tools:
        raise GrammarError("a tool grammar needs at least one tool")
    conv = SchemaConverter(prop_order={}, allow_fetch=False, dotall=False, raw_pattern=False)
    alternatives: list[str] = []
    for i, tool in enumerate(tools):
        if not _NAME_RE.fullmatch(tool.name):
            raise GrammarError(f"tool name {tool.name!r} is not a plain identifier")
        args_rule = conv.visit(prepare_schema(tool.parameters), f"tool{i}-args")
        head = conv._format_literal(tool.name + ARGS_WRAP[:-1])
        alternatives.append(conv._add_rule(f"tool{i}", f"{head} {args_rule}"))
    if with_done:
        alternatives.append(
            conv._add_rule("tool-done", conv._format_literal(done_name(tools) + '"}'))
        )
    conv._rules["root"] = " | ".join(alternatives)
    grammar: str = conv.format_grammar()
    return grammar


# --- descriptions and examples -----------------------------------------------------------


def describe_schema(schema: dict[str, Any]) -> str:
    """A compact, model-readable description of an argument schema."""
    props: dict[str, Any] = schema.get("properties", {})
    if not props:
        return "{}"
    required = set(schema.get("required", []))
    parts = []
    for key, sub in props.items():
        text = f'"{key}": {_describe_value(sub)}'
        if key not in required:
            text += " (optional)"
        parts.append(text)
    return "{" + ", ".join(parts) + "}"


def _describe_value(schema: dict[str, Any]) -> str:
    if "enum" in schema:
        values = schema["enum"]
        if all(isinstance(v, int) for v in values) and len(values) > 3:
            return f"integer {min(values)}-{max(values)}"
        return "one of " + "|".join(json.dumps(v) for v in values)
    if "const" in schema:
        return json.dumps(schema["const"])
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        kinds = [_describe_value(o) for o in options if o.get("type") != "null"]
        return " or ".join(kinds) or "null"
    kind = schema.get("type", "value")
    if kind == "string" and "maxLength" in schema:
        return f"string (at most {schema['maxLength']} characters)"
    if kind == "object":
        return describe_schema(schema)
    if kind == "array":
        return f"list of {_describe_value(schema.get('items', {}))}"
    return str(kind)


def example_arguments(schema: dict[str, Any], text: str = "Hello.") -> dict[str, Any]:
    """A small valid argument object for `schema` (strings become `text`)."""
    out: dict[str, Any] = {}
    props: dict[str, Any] = schema.get("properties", {})
    for key in schema.get("required", []):
        if key in props:
            out[key] = _example_value(props[key], text)
    return out


def _example_value(schema: dict[str, Any], text: str) -> Any:
    if "enum" in schema:
        return schema["enum"][0]
    if "const" in schema:
        return schema["const"]
    options = schema.get("anyOf") or schema.get("oneOf")
    if options:
        return _example_value(options[0], text)
    kind = schema.get("type")
    if kind == "string":
        return text[: int(schema.get("maxLength", len(text)))]
    if kind in ("integer", "number"):
        return schema.get("minimum", 1)
    if kind == "boolean":
        return True
    if kind == "array":
        return []
    if kind == "object":
        return example_arguments(schema, text)
    return None


def _call_text(name: str, arguments: str) -> str:
    args = arguments.strip() or "{}"
    return f'{{"name": "{name}", "arguments": {args}}}'


# --- prompts -----------------------------------------------------------------------------


def _npc_name(request: ProviderRequest) -> str:
    name = request.npc.name if request.npc is not None else "NPC"
    return " ".join(name.split())[:40] or "NPC"


def _instructions(request: ProviderRequest, name: str, done: str) -> str:
    lines = [
        f"{name} acts in the world by writing one action per line, as JSON: "
        '{"name": <skill>, "arguments": {...}}.',
        "Skills and their arguments:",
    ]
    for tool in request.tools:
        desc = " ".join(tool.description.split())
        lines.append(f"- {tool.name} {describe_schema(prepare_schema(tool.parameters))}: {desc}")
    lines.append(f'When {name} has finished acting, {name} writes {{"name": "{done}"}}.')
    return "\n".join(lines)


def _examples(request: ProviderRequest, name: str, done: str, tool_mode: bool) -> list[str]:
    greeting = request.npc.greeting if request.npc is not None else ""
    greeting = greeting.strip() or "Hello there, traveller."
    greeting = " ".join(greeting.split())
    lines = ['Player says: """Hello!"""']
    if not tool_mode:
        return [*lines, f"{name}: {greeting}"]
    say = next((t for t in request.tools if t.speech), None)  # the tool that speaks
    chosen = say or request.tools[0]
    args = example_arguments(prepare_schema(chosen.parameters), greeting)
    if say is not None and say.speech is not None:
        args = {say.speech: greeting[:200], **{k: v for k, v in args.items() if k != say.speech}}
    lines.append(f"{name}: {_call_text(chosen.name, json.dumps(args))}")
    lines.append("Result: ok")
    lines.append(f'{name}: {{"name": "{done}"}}')
    return lines


def _transcript(messages: list[Message], name: str) -> list[str]:
    lines: list[str] = []
    for message in messages:
        if message.role == "user":
            lines.append(message.content.strip())
        elif message.role == "assistant":
            if message.content.strip():
                lines.append(f"{name}: {message.content.strip()}")
            lines.extend(f"{name}: {_call_text(c.name, c.arguments)}" for c in message.tool_calls)
        else:
            label = "Error" if message.is_error else "Result"
            lines.append(f"{label}: {message.content.strip()}")
    return lines


def render_completion_prompt(request: ProviderRequest, *, tool_mode: bool) -> str:
    """The whole prompt for a base model: stable header, examples, transcript, cue."""
    name = _npc_name(request)
    done = done_name(request.tools) if tool_mode else "done"
    parts = [request.system.strip()]
    if tool_mode:
        parts.append(_instructions(request, name, done))
    parts.append("Example:\n" + "\n".join(_examples(request, name, done, tool_mode)))
    conversation = _transcript(request.messages, name)
    cue = f"{name}: {TOOL_PREFIX}" if tool_mode else f"{name}:"
    parts.append("Conversation:\n" + "\n".join([*conversation, cue]))
    return "\n\n".join(p for p in parts if p)


def render_chat_messages(request: ProviderRequest, *, tool_mode: bool) -> list[dict[str, str]]:
    """Alternating chat messages (system first) for a model with a chat template."""
    name = _npc_name(request)
    done = done_name(request.tools) if tool_mode else "done"
    system = [request.system.strip()]
    if tool_mode:
        system.append(_instructions(request, name, done))
    system.append("Example:\n" + "\n".join(_examples(request, name, done, tool_mode)))
    out: list[dict[str, str]] = [{"role": "system", "content": "\n\n".join(system)}]
    for message in request.messages:
        if message.role == "assistant":
            role = "assistant"
            texts = [message.content.strip()] if message.content.strip() else []
            texts += [_call_text(c.name, c.arguments) for c in message.tool_calls]
            content = "\n".join(texts)
        else:
            role = "user"
            content = message.content.strip()
            if message.role == "tool":
                content = f"{'Error' if message.is_error else 'Result'}: {content}"
        if len(out) > 1 and out[-1]["role"] == role:
            out[-1]["content"] += "\n" + content
        else:
            out.append({"role": role, "content": content})
    if len(out) == 1 or out[1]["role"] != "user":
        out.insert(1, {"role": "user", "content": "(The scene begins.)"})
    if out[-1]["role"] == "assistant":
        out.append({"role": "user", "content": "(Go on.)"})
    return out


# --- streaming -----------------------------------------------------------------------------


class ArgsScanner:
    """Finds where a streamed JSON object ends, so argument text can be emitted as it comes."""

    def __init__(self) -> None:
        self.text = ""
        self.done = False
        self._depth = 0
        self._in_string = False
        self._escape = False

    def feed(self, piece: str) -> str:
        """Consume `piece`; return the part of it that belongs to the object."""
        if self.done:
            return ""
        for i, ch in enumerate(piece):
            if self._in_string:
                if self._escape:
                    self._escape = False
                elif ch == "\\":
                    self._escape = True
                elif ch == '"':
                    self._in_string = False
            elif ch == '"':
                self._in_string = True
            elif ch in "{[":
                self._depth += 1
            elif ch in "}]":
                self._depth -= 1
                if self._depth == 0:
                    self.done = True
                    self.text += piece[: i + 1]
                    return piece[: i + 1]
        self.text += piece
        return piece
