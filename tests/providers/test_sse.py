"""The SSE decoder against the spec's corner cases and every split of real transcripts."""

from __future__ import annotations

import json

import httpx
import pytest
from httpx_sse import EventSource
from hypothesis import given, settings
from hypothesis import strategies as st
from provider_kit import TRANSCRIPTS, transcript

from game.agent.providers.sse import SSEDecoder, SSEEvent

NAMES = sorted(p.name for p in TRANSCRIPTS.glob("*.sse"))


def decode(*chunks: bytes) -> list[SSEEvent]:
    decoder = SSEDecoder()
    out: list[SSEEvent] = []
    for chunk in chunks:
        out += decoder.feed(chunk)
    return out + decoder.flush()


# --- variants of a transcript that must decode to the same events ---------------------------


def crlf(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r\n")


def cr(data: bytes) -> bytes:
    return data.replace(b"\n", b"\r")


def keepalives(data: bytes) -> bytes:
    """Comment lines between events and inside them, as proxies and servers send."""
    blocks = data.split(b"\n\n")
    return b"".join(b": ping\n" + b + b"\n\n: keep-alive\n\n" for b in blocks[:-1])


def multiline(data: bytes) -> bytes:
    """Each JSON payload pretty-printed over several `data:` lines (joined with \\n)."""
    out = []
    for line in data.split(b"\n"):
        if line.startswith(b"data: {"):
            pretty = json.dumps(json.loads(line[6:]), indent=1, ensure_ascii=False)
            out.append(b"\n".join(b"data: " + p.encode() for p in pretty.split("\n")))
        else:
            out.append(line)
    return b"\n".join(out)


def bom(data: bytes) -> bytes:
    return b"\xef\xbb\xbf" + data


def normalized(events: list[SSEEvent]) -> list[tuple[str, object]]:
    """Events with JSON data parsed, so pretty-printed variants compare equal."""
    out = []
    for ev in events:
        try:
            data: object = json.loads(ev.data)
        except ValueError:
            data = ev.data
        out.append((ev.event, data))
    return out


# --- spec corner cases ------------------------------------------------------------------------


def test_basic_fields_and_defaults() -> None:
    events = decode(b"event: greet\nid: 7\nretry: 1500\ndata: hi\n\ndata: again\n\n")
    assert events == [SSEEvent("greet", "hi", "7", 1500), SSEEvent("", "again", "7", 1500)]


def test_fast_and_general_paths_agree() -> None:
    simple = b"event: a\ndata: 1\n\nevent: \ndata: \n\ndata:  two spaces\n\n"
    expected = [SSEEvent("a", "1"), SSEEvent("", ""), SSEEvent("", " two spaces")]
    assert decode(simple) == expected
    # the same events, with forms only the general parser handles, in one batch
    general = b"event:a\ndata:1\n\n: c\nevent: \ndata\n\n\n\ndata:  two spaces\n\n"
    assert decode(general) == expected
    # an `id` line in the batch: ids must be carried on the right events
    assert decode(b"data: x\n\nid: 5\ndata: y\n\ndata: z\n\n") == [
        SSEEvent("", "x", ""),
        SSEEvent("", "y", "5"),
        SSEEvent("", "z", "5"),
    ]


def test_multi_line_data_joined_with_newline() -> None:
    assert decode(b"data: a\ndata:b\ndata:  c\n\n") == [SSEEvent("", "a\nb\n c")]


def test_comments_unknown_fields_and_no_data_are_not_events() -> None:
    raw = b": keep-alive\n\nevent: x\n\nfoo: bar\nid: 3\n\n:c\ndata: real\n\n"
    assert decode(raw) == [SSEEvent("", "real", "3")]


def test_empty_data_line_dispatches_empty_event() -> None:
    assert decode(b"data:\n\ndata\n\n") == [SSEEvent("", ""), SSEEvent("", "")]


def test_field_without_colon_and_value_without_space() -> None:
    assert decode(b"event:x\ndata:1\n\n") == [SSEEvent("x", "1")]


def test_invalid_retry_and_nul_id_are_ignored() -> None:
    decoder = SSEDecoder()
    events = decoder.feed(b"id: a\0b\nretry: 10s\ndata: x\n\n")
    assert events == [SSEEvent("", "x", "", None)]
    assert decoder.feed(b"data: y\n\n") == [SSEEvent("", "y", "", None)]  # nothing kept


def test_partial_event_at_end_is_discarded() -> None:
    assert decode(b"data: one\n\ndata: two\n") == [SSEEvent("", "one")]


def test_bom_is_dropped_only_at_the_start() -> None:
    assert decode(b"\xef\xbb\xbf", b"data: x\n\n") == [SSEEvent("", "x")]
    assert decode(b"\xef", b"\xbb\xbfdata: x\n\n") == [SSEEvent("", "x")]
    # a BOM later in the stream is an ordinary (odd) character of a field name
    assert decode(b"data: x\n\n\xef\xbb\xbfdata: y\n\n") == [SSEEvent("", "x")]


@pytest.mark.parametrize("sep", [b"\n", b"\r\n", b"\r"])
def test_line_endings(sep: bytes) -> None:
    raw = b"event: e" + sep + b"data: 1" + sep + sep + b"data: 2" + sep + sep
    assert decode(raw) == [SSEEvent("e", "1"), SSEEvent("", "2")]


def test_crlf_split_between_cr_and_lf_does_not_make_an_extra_line() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\r") == []
    assert decoder.feed(b"\ndata: b\r\n\r") == [SSEEvent("", "a\nb")]
    assert decoder.feed(b"\ndata: c\r\n\r\n") == [SSEEvent("", "c")]


def test_cr_ending_a_chunk_dispatches_without_waiting() -> None:
    decoder = SSEDecoder()
    assert decoder.feed(b"data: a\r\r") == [SSEEvent("", "a")]


def test_utf8_split_inside_a_character() -> None:
    raw = "data: ☕ café\n\n".encode()
    cut = raw.index("☕".encode()) + 1
    assert decode(raw[:cut], raw[cut : cut + 1], raw[cut + 1 :]) == [SSEEvent("", "☕ café")]


def test_invalid_utf8_is_replaced_not_fatal() -> None:
    assert decode(b"data: \xff\xfe ok\n\n") == [SSEEvent("", "\ufffd\ufffd ok")]


# --- every split point of every transcript ------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
@pytest.mark.parametrize("variant", [None, crlf, cr])
def test_every_two_way_split(name: str, variant) -> None:
    raw = transcript(name)
    data = variant(raw) if variant else raw
    expected = decode(raw)
    assert len(expected) > 10 and all(e.data for e in expected)
    for k in range(len(data) + 1):
        decoder = SSEDecoder()
        got = decoder.feed(data[:k]) + decoder.feed(data[k:])
        assert got == expected, f"split at {k}"


@pytest.mark.parametrize("name", NAMES)
def test_one_byte_at_a_time_with_every_variant(name: str) -> None:
    raw = transcript(name)
    expected = normalized(decode(raw))
    for variant in (crlf, cr, keepalives, multiline, bom, lambda d: bom(crlf(keepalives(d)))):
        data = variant(raw)
        decoder = SSEDecoder()
        got = [ev for i in range(len(data)) for ev in decoder.feed(data[i : i + 1])]
        assert normalized(got) == expected


@settings(max_examples=150, deadline=None)
@given(
    name=st.sampled_from(NAMES),
    variant=st.sampled_from(["lf", "crlf", "cr", "keepalive", "multiline", "bom"]),
    cuts=st.lists(st.integers(min_value=0, max_value=20_000), max_size=12),
)
def test_random_chunkings(name: str, variant: str, cuts: list[int]) -> None:
    raw = transcript(name)
    transform = {
        "lf": lambda d: d,
        "crlf": crlf,
        "cr": cr,
        "keepalive": keepalives,
        "multiline": multiline,
        "bom": bom,
    }[variant]
    data = transform(raw)
    points = sorted({c % (len(data) + 1) for c in cuts})
    pieces = [data[a:b] for a, b in zip([0, *points], [*points, len(data)], strict=True)]
    assert normalized(decode(*pieces)) == normalized(decode(raw))


# --- agreement with httpx-sse -------------------------------------------------------------------


@pytest.mark.parametrize("name", NAMES)
async def test_same_events_as_httpx_sse(name: str) -> None:
    raw = crlf(keepalives(transcript(name)))

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, headers={"content-type": "text/event-stream"}, content=raw)

    async with httpx.AsyncClient(transport=httpx.MockTransport(handler)) as client:
        async with client.stream("GET", "http://sse.test/") as response:
            theirs = [(e.event, e.data, e.id) async for e in EventSource(response).aiter_sse()]
    ours = [(e.event or "message", e.data, e.id) for e in decode(raw)]
    assert ours == theirs
