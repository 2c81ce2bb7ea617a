"""Slots written by a newer game, by a crash or by an attacker: refused or repaired with one
line, never modified, never past a size bound, never a clock that cannot move."""

from __future__ import annotations

import hashlib
import io
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.agent.events import UserMessage
from game.agent.store import SessionStore
from game.cli import main
from game.limits import MAX_SAVED_IDS
from game.save import catalog
from game.save.catalog import list_slots
from game.save.errors import ArchiveError, SaveError
from game.save.format import MAX_CLOCK_S, MAX_DAY_MINUTES, PlayerState, SavedWorld
from game.save.layout import slot_files
from game.save.salvage import copy_log
from game.save.slot_io import read_slot, write_slot
from game.save.tidy import EXPORTS_DIR, tidy_saves
from game.save.transfer import export_slot, import_slot
from game.village import Village

from .conftest import ROOT, VILLAGE

RUN = [sys.executable, str(ROOT / "run_game.py")]


def make_slot(saves: Path, slot: str, text: str = "old", events: int = 3) -> None:
    store = SessionStore(saves, slot)
    for i in range(events):
        store.append("tobin", UserMessage(text=f"{text} {i}"))
    world = SavedWorld(map_id="village", clock=60.0, player=PlayerState(tile=(12, 19)))
    assert write_slot(saves, slot, world, store=store, thumbnail=b"\x89PNG").ok
    store.close()


def digest(path: Path) -> dict[str, str]:
    return {
        p.relative_to(path).as_posix(): hashlib.sha256(p.read_bytes()).hexdigest()
        for p in sorted(path.rglob("*"))
        if p.is_file()
    }


def one_line(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    assert "Traceback" not in err
    return lines[0]


def run(saves: Path, *args: str, **kw: object) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [*RUN, *args, "--saves-dir", str(saves)],
        capture_output=True, text=True, timeout=120, cwd=saves, **kw,  # type: ignore[call-overload]
    )  # fmt: skip


# --- a newer format ------------------------------------------------------------------


@pytest.mark.parametrize("newer", ["meta.json", "world.json", "both"])
def test_a_newer_slot_is_refused_by_every_command_and_never_modified(
    saves: Path, newer: str
) -> None:
    make_slot(saves, "future")
    slot = saves / "future"
    for name in ("meta.json", "world.json") if newer == "both" else (newer,):
        data = json.loads((slot / name).read_text())
        (slot / name).write_text(json.dumps({**data, "format": 9, "weather": "rain"}))
    with open(slot / "npcs/tobin/session/events.jsonl", "a") as f:
        f.write('{"type": "news.heard", "seq": 4, "ts": 5.0}\n')
    before = digest(slot)
    for args in (
        ["chat", "tobin", "hello", "--provider", "scripted", "--slot", "future"],
        ["--headless", "--frames", "1", "--provider", "scripted", "--slot", "future"],
    ):
        out = run(saves, *args)
        assert out.returncode == 2, out.stderr
        assert "newer version of the game" in one_line(out.stderr)
        assert digest(slot) == before
    listed = next(i for i in list_slots(saves) if i.slot == "future")
    assert listed.error is not None and "newer" in listed.error
    assert digest(slot) == before


# --- replacing a slot, killed at any point --------------------------------------------


class Killed(BaseException):
    """The process died here (no handler of ours runs; the kernel drops the locks)."""


def _archive(tmp: Path, saves: Path) -> Path:
    other = tmp / "elsewhere"
    make_slot(other, "game", "new", events=5)
    archive = tmp / "new.zip"
    export_slot(other, "game", archive)
    return archive


def _whole(saves: Path) -> str:
    """Which slot is in place, checked whole: "old" or "new"."""
    events = SessionStore(saves, "game").read("tobin")
    texts = [e.text for e in events if isinstance(e, UserMessage)]
    kind = texts[0].split()[0]
    assert texts == [f"{kind} {i}" for i in range(3 if kind == "old" else 5)]
    assert read_slot(saves, "game").world is not None
    return kind


def test_an_import_killed_at_any_step_leaves_the_old_slot_or_the_new_whole(
    tmp_path: Path, saves: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    archive = _archive(tmp_path, saves)
    real_replace, real_rmtree = os.replace, shutil.rmtree
    seen: set[str] = set()
    for kill_at in range(12):
        shutil.rmtree(saves)
        make_slot(saves, "game", "old")
        calls = [0]

        def step(
            real: object, *args: object, calls: list[int] = calls, kill_at: int = kill_at,
            **kw: object,
        ) -> object:  # fmt: skip
            calls[0] += 1
            if calls[0] == kill_at:
                raise Killed
            return real(*args, **kw)  # type: ignore[operator]

        monkeypatch.setattr(catalog.os, "replace", lambda *a, **k: step(real_replace, *a, **k))
        monkeypatch.setattr(catalog.shutil, "rmtree", lambda *a, **k: step(real_rmtree, *a, **k))
        try:
            import_slot(saves, archive, force=True)
        except Killed:
            pass
        monkeypatch.undo()
        tidy_saves(saves)  # the next start
        seen.add(_whole(saves))
        assert [p.name for p in saves.iterdir() if p.name.startswith(".")] == [".locks"]
    assert seen == {"old", "new"}


def test_a_real_kill_during_an_import_never_loses_the_slot(tmp_path: Path, saves: Path) -> None:
    other = tmp_path / "elsewhere"
    make_slot(other, "game", "new", events=5)
    store = SessionStore(other, "game")
    for i in range(20000):  # a log of some megabytes, so the unpack takes a while
        store.append("brenna", UserMessage(text=f"filler {i} " + "z" * 200))
    store.close()
    archive = tmp_path / "big.zip"
    export_slot(other, "game", archive)
    for delay in (0.0, 0.2, 0.5, 0.9):
        shutil.rmtree(saves, ignore_errors=True)
        make_slot(saves, "game", "old")
        proc = subprocess.Popen(
            [*RUN, "saves", "import", str(archive), "--force", "--saves-dir", str(saves)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=saves,
        )  # fmt: skip
        try:
            proc.wait(timeout=1.0 + delay)
        except subprocess.TimeoutExpired:
            pass
        proc.kill()
        proc.wait()
        listed = run(saves, "saves", "list")  # the next start tidies up
        assert listed.returncode == 0, listed.stderr
        assert _whole(saves) in ("old", "new")
        # (.locks is there once a process took a lock: a kill may come before.)
        assert {p.name for p in saves.iterdir() if p.name.startswith(".")} <= {".locks"}


def test_a_killed_export_leaves_no_temp_file_after_the_next_start(
    tmp_path: Path, saves: Path
) -> None:
    make_slot(saves, "game")
    out_dir = tmp_path / "exports"
    out_dir.mkdir()
    code = (
        "import os, sys, zipfile\n"
        "from pathlib import Path\n"
        "from game.save.tidy import exporting\n"
        "with exporting(Path(sys.argv[1]), Path(sys.argv[2])) as tmp:\n"
        "    zipfile.ZipFile(tmp, 'w').writestr('x', 'y' * 1000)\n"
        "    print('writing', flush=True)\n"
        "    os.kill(os.getpid(), 9)\n"
    )
    proc = subprocess.run(
        [sys.executable, "-c", code, str(saves), str(out_dir / "game.zip")],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )  # fmt: skip
    assert proc.stdout.strip() == "writing" and proc.returncode == -9
    assert next(p.name for p in out_dir.iterdir()).endswith(".tmp")  # left behind by the kill
    assert list((saves / EXPORTS_DIR).iterdir())
    assert run(saves, "saves", "list").returncode == 0  # the next start
    assert list(out_dir.iterdir()) == [] and list((saves / EXPORTS_DIR).iterdir()) == []


def test_temp_files_of_cut_writes_are_removed_at_the_next_start(saves: Path) -> None:
    make_slot(saves, "game")
    left = [
        saves / "game" / "world.json.a1b2c3.tmp",
        saves / "game" / "npcs" / "tobin" / "session" / "state.json.x_y9.tmp",
    ]
    for path in left:
        path.write_text("half")
    (saves / ".import-other-123").mkdir()
    (saves / ".deleted-gone-77").mkdir()
    (saves / ".copy-next").mkdir()
    tidy_saves(saves)
    assert not any(p.exists() for p in left)
    assert [p.name for p in saves.iterdir() if p.name.startswith(".")] == [".locks"]
    assert _whole(saves) == "old"


# --- bounds --------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("name", "size"),
    [
        ("meta.json", 200 * 1024),
        ("world.json", 40 * 1024**2),
        ("world_summary.txt", 3 * 1024**2),
        ("npcs/tobin/session/state.json", 90 * 1024),
        ("npcs/tobin/memory/summary.txt", 2 * 1024**2),
    ],
)
def test_a_zip_member_over_its_bound_is_refused_before_it_is_read(
    tmp_path: Path, saves: Path, capsys: pytest.CaptureFixture[str], name: str, size: int
) -> None:
    archive = tmp_path / "bomb.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("bomb/npcs/tobin/session/events.jsonl", "")
        zf.writestr(f"bomb/{name}", b" " * size)  # compresses to almost nothing
    assert archive.stat().st_size < 100 * 1024
    code = main(["saves", "import", str(archive), "--saves-dir", str(saves)])
    err = capsys.readouterr().err
    assert code == 2 and "more than the" in one_line(err) and name.split("/")[-1] in err
    assert not (saves / "bomb").exists()


def test_a_huge_file_in_a_slot_never_breaks_the_list(saves: Path) -> None:
    """Sparse files of gigabytes (no disk used) in two slots: the list still shows every
    slot, in a process limited to a fraction of their size."""
    for slot in ("fine", "summary", "meta"):
        make_slot(saves, slot)
    with open(saves / "summary" / "world_summary.txt", "wb") as f:
        f.truncate(3 * 1024**3)
    with open(saves / "meta" / "meta.json", "wb") as f:
        f.truncate(3 * 1024**3)
    code = (
        "import resource, sys\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))\n"
        "from game.cli import main\n"
        "sys.exit(main(['saves', 'list', '--saves-dir', sys.argv[1]]))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(saves)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    rows = {line.split()[0] for line in out.stdout.splitlines()[1:] if line.strip()}
    assert {"fine", "summary", "meta"} <= rows
    assert "world_summary.txt" in out.stdout and "more than the" in out.stdout


# --- clocks and numbers ----------------------------------------------------------------

BAD_CLOCKS = ["1e300", "Infinity", "-Infinity", "NaN", "-5", str(MAX_CLOCK_S * 10)]


@pytest.mark.parametrize("clock", BAD_CLOCKS)
def test_a_clock_that_cannot_move_is_damage_not_a_frozen_game(saves: Path, clock: str) -> None:
    make_slot(saves, "clock")
    path = saves / "clock" / "world.json"
    text = path.read_text()
    path.write_text(text.replace('"clock": 60.0', f'"clock": {clock}'))
    (saves / "clock" / "world.json.bak").unlink(missing_ok=True)
    data = read_slot(saves, "clock")
    assert data.world is None and any("world.json is damaged" in w for w in data.warnings)
    village = Village.open(VILLAGE, slot="clock", saves_dir=saves)
    try:
        before = village.world.clock
        village.world.step(0.5)
        assert math.isfinite(before) and village.world.clock == before + 0.5
    finally:
        village.close()


@pytest.mark.parametrize("clock", BAD_CLOCKS)
def test_an_import_with_a_bad_clock_is_refused(
    tmp_path: Path, saves: Path, capsys: pytest.CaptureFixture[str], clock: str
) -> None:
    world = json.loads(
        SavedWorld(map_id="village", player=PlayerState(tile=(1, 1))).model_dump_json()
    )
    body = json.dumps(world).replace('"clock": 0.0', f'"clock": {clock}')
    archive = tmp_path / "clock.zip"
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("clock/world.json", body)
    archive.write_bytes(buf.getvalue())
    with pytest.raises(ArchiveError, match=r"world\.json is damaged"):
        import_slot(saves, archive)
    assert main(["saves", "import", str(archive), "--saves-dir", str(saves)]) == 2
    assert "clock" in one_line(capsys.readouterr().err)
    assert not (saves / "clock").exists()


def test_the_largest_clock_a_save_may_hold_still_moves(saves: Path) -> None:
    world = SavedWorld(map_id="village", clock=MAX_CLOCK_S, player=PlayerState(tile=(12, 19)))
    assert write_slot(saves, "old", world).ok
    village = Village.open(VILLAGE, slot="old", saves_dir=saves)
    try:
        assert village.world.clock == MAX_CLOCK_S
        for _ in range(60):
            village.world.step(1 / 60)
        assert village.world.clock > MAX_CLOCK_S
    finally:
        village.close()


def test_an_import_over_a_slot_in_use_is_refused(tmp_path: Path, saves: Path) -> None:
    archive = _archive(tmp_path, saves)
    make_slot(saves, "game", "old")
    village = Village.open(VILLAGE, slot="game", saves_dir=saves)
    try:
        with pytest.raises(SaveError, match="in use by another process"):
            import_slot(saves, archive, force=True)
    finally:
        village.close()
    assert _whole(saves) == "old"


# --- nesting deeper than any file the game writes ---------------------------------------

DEEP = "[" * 100_000 + "]" * 100_000
DEEP_META = "[" * 30_000 + "]" * 30_000  # within meta.json's 64 KB
SLOT_JSON = ["meta.json", "world.json", "news.json", "board.json", "feelings.json"]


@pytest.mark.parametrize("name", SLOT_JSON)
def test_deep_nesting_in_a_slot_file_is_damage_never_a_crash(
    saves: Path, capsys: pytest.CaptureFixture[str], name: str
) -> None:
    make_slot(saves, "fine")
    make_slot(saves, "deep")
    make_slot(saves, "deep")  # a second save: world.json.bak is the first
    deep = DEEP if name != "meta.json" else DEEP_META
    (saves / "deep" / name).write_text(deep if name != "board.json" else f'{{"boards": {deep}}}')
    assert main(["saves", "list", "--saves-dir", str(saves)]) == 0
    out = capsys.readouterr().out
    rows = {line.split()[0]: line.split()[-1] for line in out.splitlines()[1:3]}
    assert rows == {"fine": "ok", "deep": "damaged"}, out
    notes = [line for line in out.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and name in notes[0] and "nested more than 64 levels" in notes[0]
    assert main(["saves", "show", "deep", "--saves-dir", str(saves)]) == 0
    assert "nested more than 64 levels" in capsys.readouterr().out

    village = Village.open(VILLAGE, slot="deep", saves_dir=saves)  # play, then quit: a save
    village.world.step(0.5)
    village.close()
    kept = saves / "deep" / f"{name}.damaged"
    assert kept.read_text().count("[") >= 30_000  # what could not be read is kept aside
    data = read_slot(saves, "deep")
    assert not data.warnings and data.world is not None


def test_deep_nesting_in_an_import_is_refused_or_set_aside_never_a_crash(
    tmp_path: Path, saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_slot(tmp_path / "src", "game")
    slot = tmp_path / "src" / "game"
    for name, refused in (("meta.json", True), ("world.json", True), ("news.json", False)):
        archive = tmp_path / f"{name}.zip"
        with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            for rel in slot_files(slot):
                if rel != name:
                    zf.write(slot / rel, f"game/{rel}")
            zf.writestr(f"game/{name}", DEEP if name != "meta.json" else DEEP_META)
        code = main(["saves", "import", str(archive), "--saves-dir", str(saves), "--force"])
        captured = capsys.readouterr()
        assert "Traceback" not in captured.err
        if refused:
            assert code == 2 and "nested more than 64 levels" in one_line(captured.err)
            assert not (saves / "game").exists()
        else:  # played as an empty part, like a damaged file on disk
            assert code == 0, captured.err
            assert any("news.json is damaged" in w for w in read_slot(saves, "game").warnings)


def _deep_log_zip(tmp_path: Path, lines: list[bytes]) -> Path:
    """A slot zip whose tobin log holds `lines` after three good events."""
    make_slot(tmp_path / "src", "game")
    slot = tmp_path / "src" / "game"
    log = slot / "npcs/tobin/session/events.jsonl"
    with open(log, "ab") as f:
        f.writelines(lines)
    archive = tmp_path / "game.zip"
    with zipfile.ZipFile(archive, "w", compression=zipfile.ZIP_DEFLATED) as zf:
        for rel in slot_files(slot):
            zf.write(slot / rel, f"game/{rel}")
    return archive


def test_an_imported_log_line_nested_too_deep_is_set_aside_and_the_slot_saves(
    tmp_path: Path, saves: Path
) -> None:
    deep = b'{"seq": 4, "ts": 1.0, "type": "user.message", "text": ' + DEEP.encode() + b"}\n"
    brackets = b'{"seq": 5, "ts": 2.0, "type": "user.message", "text": "' + b"[" * 500 + b'"}\n'
    archive = _deep_log_zip(tmp_path, [deep, brackets])
    out = run(saves, "saves", "import", str(archive))
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    notes = [line for line in out.stdout.splitlines() if line.startswith("note:")]
    assert len(notes) == 1 and "'tobin'" in notes[0] and "1 line nested too deep" in notes[0]
    log = saves / "game/npcs/tobin/session"
    assert (log / "events.jsonl.rejected").read_bytes() == deep
    assert brackets in (log / "events.jsonl").read_bytes()  # brackets in a string are text

    data = read_slot(saves, "game")  # it loads, plays and saves again, as any slot
    assert data.world is not None
    store = SessionStore(saves, "game")
    texts = [e.text for e in store.read("tobin") if isinstance(e, UserMessage)]
    assert texts == ["old 0", "old 1", "old 2", "[" * 500]
    store.append("tobin", UserMessage(text="after"))
    result = write_slot(saves, "game", data.world, store=store)
    store.close()
    assert result.ok and result.sessions == {"tobin": 6}, result
    assert read_slot(saves, "game").world is not None
    assert "game" not in {p.name for p in saves.iterdir() if p.name.startswith(".")}
    assert "events.jsonl.rejected" not in " ".join(slot_files(saves / "game"))


# --- clocks at their bound -------------------------------------------------------------


def test_a_clock_at_its_bound_plays_saves_and_loads(saves: Path) -> None:
    world = SavedWorld(
        map_id="village", clock=MAX_CLOCK_S, time_minutes=MAX_DAY_MINUTES,
        player=PlayerState(tile=(12, 19)),
    )  # fmt: skip
    assert write_slot(saves, "old", world).ok
    village = Village.open(VILLAGE, slot="old", saves_dir=saves)
    hour = village.world.day.hour
    for _ in range(60):
        village.world.step(1 / 60)
    assert village.world.clock > MAX_CLOCK_S and village.world.day.minutes > MAX_DAY_MINUTES
    hour = village.world.day.hour
    village.close()  # the save on quit
    data = read_slot(saves, "old")
    assert not data.warnings and data.world is not None and not data.from_backup
    assert data.world.clock == MAX_CLOCK_S and data.meta.play_time_s == MAX_CLOCK_S
    assert data.world.time_minutes <= MAX_DAY_MINUTES
    again = Village.open(VILLAGE, slot="old", saves_dir=saves)
    try:
        assert again.world.clock == MAX_CLOCK_S
        assert again.world.day.hour == pytest.approx(hour, abs=1e-3)  # whole days back
    finally:
        again.close()


def test_a_clock_at_its_bound_in_a_played_game_gives_no_traceback(saves: Path) -> None:
    world = SavedWorld(map_id="village", clock=MAX_CLOCK_S, player=PlayerState(tile=(12, 19)))
    assert write_slot(saves, "old", world).ok
    out = run(saves, "--headless", "--frames", "2", "--provider", "scripted", "--slot", "old")
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr
    assert "validation error" not in out.stderr
    data = read_slot(saves, "old")
    assert not data.warnings and data.world is not None and data.world.clock == MAX_CLOCK_S


def test_a_save_never_writes_what_its_load_would_refuse(saves: Path) -> None:
    make_slot(saves, "game")
    before = digest(saves / "game")
    for update in ({"clock": MAX_CLOCK_S * 2}, {"time_minutes": math.inf}, {"map_id": "m" * 501}):
        world = SavedWorld.model_construct(
            **{**SavedWorld(map_id="village", player=PlayerState(tile=(1, 1))).__dict__, **update}
        )
        result = write_slot(saves, "game", world)
        assert not result.ok and "does not read back" in result.message
        assert "\n" not in result.message and str(next(iter(update))) in result.message
        assert digest(saves / "game") == before


def test_a_save_that_fails_on_quit_is_one_line(saves: Path) -> None:
    make_slot(saves, "game")
    log = saves / "game/npcs/tobin/session/events.jsonl"
    with open(log, "ab") as f:  # planted after any import: a line no reader can parse
        f.write(b'{"seq": 4, "ts": 1.0, "type": "user.message", "text": ' + DEEP.encode() + b"}\n")
    out = run(saves, "--headless", "--frames", "2", "--provider", "scripted", "--slot", "game")
    assert out.returncode == 0 and "Traceback" not in out.stderr, out.stderr[-3000:]


# --- a damaged world.json of gigabytes -------------------------------------------------


def test_a_save_over_a_huge_world_json_keeps_it_aside_unread(saves: Path) -> None:
    """A sparse world.json of 3 GB (no disk used): the save in a process limited to 1 GB
    of memory neither reads it nor destroys it."""
    make_slot(saves, "game")
    make_slot(saves, "game")  # world.json.bak: the first save
    with open(saves / "game" / "world.json", "wb") as f:
        f.truncate(3 * 1024**3)
    code = (
        "import resource, sys\n"
        "from pathlib import Path\n"
        "resource.setrlimit(resource.RLIMIT_AS, (1024**3, 1024**3))\n"
        "from game.save.slot_io import read_slot, write_slot\n"
        "data = read_slot(Path(sys.argv[1]), 'game')\n"
        "print(data.warnings[0])\n"
        "result = write_slot(Path(sys.argv[1]), 'game', data.world)\n"
        "print(result.message)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code, str(saves)],
        capture_output=True, text=True, timeout=120, cwd=ROOT,
    )  # fmt: skip
    assert out.returncode == 0, out.stderr[-2000:]
    said, saved = out.stdout.splitlines()
    assert "world.json is damaged" in said and "world.json.damaged" in said
    assert saved == "saved 'game'"
    assert (saves / "game" / "world.json.damaged").stat().st_size == 3 * 1024**3
    data = read_slot(saves, "game")
    assert not data.warnings and data.world is not None and data.world.clock == 60.0


# --- many NPCs the map does not have -----------------------------------------------------


def test_many_strays_and_big_logs_in_a_slot_are_one_line_each(saves: Path) -> None:
    make_slot(saves, "game")
    npcs = saves / "game" / "npcs"
    for i in range(500):
        (npcs / f"Not An Id {i}").mkdir()
    store = SessionStore(saves, "game")
    for npc_id in ("ada", "bram", "cole", "dora", "eli"):
        store.append(npc_id, UserMessage(text="x" * 3000))
    store.close()
    data = read_slot(saves, "game", large_log_bytes=1024)
    assert len(data.warnings) == 2, data.warnings
    strays, big = data.warnings
    assert "and 497 more entries in npcs/ (not NPC ids)" in strays
    assert big.startswith("slot 'game': 5 session logs are over 1 KB ('ada', 'bram', 'cole'")
    assert "and 2 more NPCs); loading them may be slow" in big


@pytest.mark.parametrize("count", [MAX_SAVED_IDS, 200_000])
def test_a_save_naming_many_unknown_npcs_is_one_warning(
    saves: Path, caplog: pytest.LogCaptureFixture, count: int
) -> None:
    """At the bound (10,000 NPCs a save may name) they are skipped in one line; past it
    (200,000) the file is damaged, one line, and the previous save loads."""
    make_slot(saves, "many")
    make_slot(saves, "many")  # world.json.bak: the first save
    path = saves / "many" / "world.json"
    npcs = {f"stranger-{i}": {"tile": [1, 1]} for i in range(count)}
    path.write_text(json.dumps({**json.loads(path.read_text()), "npcs": npcs}))
    with caplog.at_level("WARNING"):
        village = Village.open(VILLAGE, slot="many", saves_dir=saves)
        village.close()
    said = [r.getMessage() for r in caplog.records]
    assert len(said) == 1, said
    if count == MAX_SAVED_IDS:
        assert said[0] == (
            "10,000 NPCs in the save are not on this map ('stranger-0', 'stranger-1', "
            "'stranger-10' and 9,997 more NPCs): skipped"
        )
    else:
        assert "world.json is damaged (npcs: 200,000 entries, more than 10,000)" in said[0]
        assert "loaded the previous save" in said[0]
    assert not read_slot(saves, "many").warnings  # the save on quit wrote a good world.json


event_lines = st.lists(
    st.one_of(
        st.builds(lambda n: json.dumps({"seq": n, "text": "x" * n}).encode(), st.integers(0, 90)),
        st.builds(lambda n: b'{"text": "' + b"[{" * n + b'"}', st.integers(0, 90)),  # in a string
        st.builds(lambda n: b"[" * n + b"]" * n, st.integers(60, 70)),  # at and past the bound
    ),
    max_size=30,
)


@settings(max_examples=60, deadline=None)
@given(event_lines, st.integers(1, 200), st.booleans())
def test_an_imported_log_keeps_every_line_but_those_nested_too_deep(
    lines: list[bytes], chunk: int, torn: bool
) -> None:
    """Whatever the chunks a log arrives in, the copy is the log without its lines nested
    past the bound, and those lines, whole, are what is set aside."""
    data = b"".join(line + b"\n" for line in lines)
    if torn and lines:
        data = data[:-1]  # a last line with no newline
    deep = [line for line in lines if line.startswith(b"[" * 65)]
    with tempfile.TemporaryDirectory() as tmp:
        aside = Path(tmp) / "events.jsonl.rejected"
        out = io.BytesIO()
        done = copy_log((data[i : i + chunk] for i in range(0, len(data), chunk)), out, aside)
        kept = [line for line in lines if line not in deep]
        expected = b"".join(line + b"\n" for line in kept)
        if torn and lines and lines[-1] not in deep:
            expected = expected[:-1]
        assert out.getvalue() == expected
        assert done.aside == len(deep) and done.dropped == 0
        assert (aside.read_bytes() if deep else b"") == b"".join(line + b"\n" for line in deep)
