"""`run_game.py saves list | show | delete | export | import`, and their one-line errors."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from game.agent.events import UserMessage
from game.agent.store import SessionStore
from game.cli import main
from game.save.format import FORMAT_VERSION, PlayerState, SavedWorld
from game.save.slot_io import write_slot

from .conftest import ROOT


def make_slot(saves: Path, slot: str, events: int = 3, name: str | None = None) -> Path:
    store = SessionStore(saves, slot)
    for i in range(events):
        store.append("tobin", UserMessage(text=f"line {i}"))
    store.append("brenna", UserMessage(text="hello"))
    state = SavedWorld(map_id="village", clock=3725.0, player=PlayerState(tile=(1, 2)))
    assert write_slot(saves, slot, state, store=store, thumbnail=b"\x89PNG", name=name).ok
    return saves / slot


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["saves", *args])
    out, err = capsys.readouterr()
    return code, out, err


def one_line_error(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: "), err
    return lines[0]


def test_list_shows_every_slot_and_its_problems(
    saves: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert run(capsys, "list", "--saves-dir", str(saves))[1].startswith("no saves in")
    make_slot(saves, "alpha", name="The alpha run")
    make_slot(saves, "beta")
    (saves / "beta" / "meta.json").write_text('{"format": 1, "na')
    (saves / "gamma").mkdir()
    (saves / "gamma" / "meta.json").write_text('{"format": 7}')
    (saves / "Not a slot").mkdir()
    code, out, err = run(capsys, "list", "--saves-dir", str(saves))
    assert code == 0 and err == ""
    rows = out.splitlines()
    assert rows[0].split() == ["SLOT", "NAME", "SAVED", "PLAY", "TIME", "NPCS", "FORMAT", "STATUS"]
    alpha = next(r for r in rows if r.startswith("alpha"))
    assert "The alpha run" in alpha and "1:02:05" in alpha and alpha.endswith("ok")
    assert " 2 " in alpha
    assert next(r for r in rows if r.startswith("beta")).endswith("damaged")
    assert next(r for r in rows if r.startswith("gamma")).endswith("cannot load")
    assert any("meta.json is damaged" in r for r in rows if r.startswith("note:"))
    assert any("newer version" in r for r in rows if r.startswith("note:"))
    assert "Not a slot" not in out


def test_show_counts_events_per_npc(saves: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_slot(saves, "alpha", events=5)
    code, out, _ = run(capsys, "show", "alpha", "--saves-dir", str(saves))
    assert code == 0
    assert f"format:     {FORMAT_VERSION}" in out and "map:        village" in out
    assert "tobin            5 events" in out and "brenna           1 events" in out
    code, _, err = run(capsys, "show", "nope", "--saves-dir", str(saves))
    assert code == 2 and "no slot named 'nope'" in one_line_error(err)


@pytest.mark.parametrize("bad", ["../x", "/abs/path", "", "x" * 65])
def test_bad_slot_names_are_refused_with_one_line(
    saves: Path, capsys: pytest.CaptureFixture[str], bad: str
) -> None:
    make_slot(saves, "alpha")
    for action in (["show", bad], ["delete", bad, "--yes"], ["export", bad, "x.zip"]):
        code, _, err = run(capsys, *action, "--saves-dir", str(saves))
        assert code == 2 and "invalid slot name" in one_line_error(err)
    assert (saves / "alpha" / "world.json").is_file()


def test_delete_needs_yes(saves: Path, capsys: pytest.CaptureFixture[str]) -> None:
    make_slot(saves, "alpha")
    make_slot(saves, "beta")
    code, _, err = run(capsys, "delete", "alpha", "--saves-dir", str(saves))
    assert code == 2 and "add --yes" in one_line_error(err)
    assert (saves / "alpha").is_dir()
    code, out, _ = run(capsys, "delete", "alpha", "--yes", "--saves-dir", str(saves))
    assert code == 0 and "deleted slot 'alpha'" in out
    assert not (saves / "alpha").exists() and (saves / "beta" / "world.json").is_file()
    code, _, err = run(capsys, "delete", "alpha", "--yes", "--saves-dir", str(saves))
    assert code == 2 and "no slot named 'alpha'" in one_line_error(err)


def test_delete_on_a_read_only_dir_is_one_line(
    saves: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    make_slot(saves, "alpha")

    def refuse(src: object, dst: object) -> None:
        raise PermissionError(errno.EACCES, "Permission denied")

    monkeypatch.setattr(os, "replace", refuse)
    code, _, err = run(capsys, "delete", "alpha", "--yes", "--saves-dir", str(saves))
    assert code == 2 and "could not delete slot 'alpha': permission denied" in one_line_error(err)
    assert (saves / "alpha" / "world.json").is_file()


def test_export_then_import_round_trips(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    slot = make_slot(saves, "alpha")
    (slot / "junk.bin").write_bytes(b"not a save file")
    archive = tmp_path / "alpha.zip"
    code, out, _ = run(capsys, "export", "alpha", str(archive), "--saves-dir", str(saves))
    assert code == 0 and "exported slot 'alpha'" in out
    with zipfile.ZipFile(archive) as zf:
        names = set(zf.namelist())
    assert "alpha/world.json" in names and "alpha/npcs/tobin/session/events.jsonl" in names
    assert "alpha/junk.bin" not in names
    code, _, err = run(capsys, "export", "alpha", str(archive), "--saves-dir", str(saves))
    assert code == 2 and "--force" in one_line_error(err)
    assert (
        run(capsys, "export", "alpha", str(archive), "--force", "--saves-dir", str(saves))[0] == 0
    )

    other = tmp_path / "other"
    code, out, _ = run(capsys, "import", str(archive), "--saves-dir", str(other))
    assert code == 0 and "imported slot 'alpha'" in out
    assert (other / "alpha" / "npcs" / "tobin" / "session" / "events.jsonl").read_bytes() == (
        slot / "npcs" / "tobin" / "session" / "events.jsonl"
    ).read_bytes()
    code, _, err = run(capsys, "import", str(archive), "--saves-dir", str(other))
    assert code == 2 and "slot 'alpha' exists; use --force" in one_line_error(err)
    assert run(capsys, "import", str(archive), "copy", "--saves-dir", str(other))[0] == 0
    assert (other / "copy" / "world.json").is_file()
    (other / "alpha" / "extra").write_text("x")
    assert run(capsys, "import", str(archive), "--force", "--saves-dir", str(other))[0] == 0
    assert not (other / "alpha" / "extra").exists()
    # Nothing is left behind but the slots' lock files.
    assert not [p for p in other.iterdir() if p.name.startswith(".") and p.name != ".locks"]


def zip_of(path: Path, members: dict[str, bytes]) -> Path:
    with zipfile.ZipFile(path, "w") as zf:
        for name, data in members.items():
            zf.writestr(name, data)
    return path


@pytest.mark.parametrize(
    ("members", "words"),
    [
        ({"s/world.json": b"{}", "../evil.txt": b"x"}, "outside the slot"),
        ({"s/../../evil/world.json": b"{}"}, "outside the slot"),
        ({"/etc/cron.d/evil": b"x"}, "absolute path"),
        ({"C:/evil/world.json": b"x"}, "absolute path"),
        ({"s\\..\\evil": b"x"}, "unsafe name"),
        ({"s/world.json": b"{}", "s/run.sh": b"rm -rf /"}, "is not a save file"),
        ({"s/npcs/../../x/meta.json": b"{}"}, "outside the slot"),
        ({"s/meta.json": b'{"format": 9}'}, "newer version"),
        ({"s/meta.json": b"{broken"}, "meta.json is damaged"),
        ({"Bad Name/world.json": b"{}"}, "not a valid slot name"),
        ({"world.json": b"{}"}, "give the slot name"),
        ({}, "no save files"),
    ],
)
def test_unsafe_or_foreign_archives_are_refused(
    saves: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    members: dict[str, bytes],
    words: str,
) -> None:
    archive = zip_of(tmp_path / "bad.zip", members)
    code, _, err = run(capsys, "import", str(archive), "--saves-dir", str(saves))
    assert code == 2 and words in one_line_error(err)
    assert list(saves.iterdir()) == []
    assert not (tmp_path / "evil.txt").exists() and not (tmp_path.parent / "evil").exists()


def test_a_flat_archive_imports_under_a_given_name(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    world = {"format": 1, "map_id": "village", "player": {"tile": [1, 2]}}
    archive = zip_of(tmp_path / "flat.zip", {"world.json": json.dumps(world).encode()})
    assert run(capsys, "import", str(archive), "flat", "--saves-dir", str(saves))[0] == 0
    assert (saves / "flat" / "world.json").is_file()


def test_not_a_zip_is_one_line(
    saves: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    fake = tmp_path / "fake.zip"
    fake.write_text("hello")
    code, _, err = run(capsys, "import", str(fake), "--saves-dir", str(saves))
    assert code == 2 and "is not a zip archive" in one_line_error(err)
    code, _, err = run(capsys, "import", str(tmp_path / "none.zip"), "--saves-dir", str(saves))
    assert code == 2 and "no such archive" in one_line_error(err)


def test_the_real_command_line(saves: Path) -> None:
    make_slot(saves, "alpha")
    env = {**os.environ, "NPC_VILLAGE_SAVES_DIR": str(saves)}
    ok = subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "saves", "list"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert ok.returncode == 0 and "alpha" in ok.stdout, ok.stderr
    bad = subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), "saves", "delete", "../x", "--yes"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert bad.returncode == 2
    assert bad.stderr.strip().startswith("error: invalid slot name '../x'")
    assert len(bad.stderr.strip().splitlines()) == 1


def test_play_refuses_a_newer_slot_with_one_line(saves: Path) -> None:
    (saves / "future").mkdir()
    (saves / "future" / "meta.json").write_text('{"format": 5}')
    args = ["--headless", "--frames", "1", "--slot", "future", "--saves-dir", str(saves)]
    out = subprocess.run(
        [sys.executable, str(ROOT / "run_game.py"), *args],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert out.returncode == 2
    line = one_line_error(out.stderr)
    assert "newer version of the game (save format 5" in line
    assert (saves / "future" / "meta.json").read_text() == '{"format": 5}'
