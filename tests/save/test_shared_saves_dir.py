"""A saves folder that others can write to (a synced folder, a download, another account):
what is planted in it is refused or removed with one line, never followed out of it.

Each planted case has a real temporary saves folder and files OUTSIDE it that must come
through untouched (their bytes, their mtime, and no file added or taken away).
"""

from __future__ import annotations

import os
import shutil
import stat
import struct
import zipfile
from dataclasses import dataclass
from pathlib import Path

import pytest

from game.agent.events import UserMessage
from game.agent.store import SessionStore
from game.cli import main
from game.limits import MAX_IMPORT_INDEX_BYTES, MAX_IMPORT_MEMBERS
from game.paths import UnsafePath, check_inside, check_tree
from game.save.catalog import list_slots, slot_info
from game.save.errors import ArchiveError, SaveError
from game.save.lock import SlotLock
from game.save.tidy import EXPORTS_DIR, tidy_saves
from game.save.transfer import export_slot, import_slot
from game.text import clean_line

from .test_hostile_slots import digest, make_slot, one_line, run

# --- files outside the saves folder ----------------------------------------------------


@dataclass(frozen=True)
class Outside:
    """A folder outside the saves folder, as it was: every entry's kind, bytes and mtime."""

    root: Path
    before: dict[str, tuple[str, bytes, int]]

    @classmethod
    def make(cls, tmp_path: Path) -> Outside:
        root = tmp_path / "outside"
        (root / "session").mkdir(parents=True)
        (root / "memory").mkdir()
        (root / "precious.txt").write_text("the player's own notes\n")
        # Named as the game names its temp files: only the game's own may ever go.
        (root / "report.pdf.ab12cd34.tmp").write_text("a file that only looks like a temp\n")
        (root / "world.json.ab12cd34.tmp").write_text("a file that only looks like a temp\n")
        (root / "world.json").write_text('{"map_id": "village"}')
        (root / "session" / "events.jsonl").write_text('{"type": "user.message", "seq": 1')
        (root / "session" / "state.json").write_text("{}")
        (root / "memory" / "summary.txt").write_text("secret\n")
        past = 1_000_000_000
        for path in root.rglob("*"):
            os.utime(path, ns=(past, past), follow_symlinks=False)
        return cls(root, cls._state(root))

    @staticmethod
    def _state(root: Path) -> dict[str, tuple[str, bytes, int]]:
        state = {}
        for path in sorted(root.rglob("*")):
            info = path.lstat()
            body = path.read_bytes() if stat.S_ISREG(info.st_mode) else b""
            state[path.relative_to(root).as_posix()] = (
                stat.filemode(info.st_mode), body, info.st_mtime_ns
            )  # fmt: skip
        return state

    def file(self, rel: str = "precious.txt") -> Path:
        return self.root / rel

    def assert_untouched(self) -> None:
        assert self._state(self.root) == self.before


@pytest.fixture
def outside(tmp_path: Path) -> Outside:
    return Outside.make(tmp_path)


def plant_link(link: Path, target: Path) -> None:
    """A symbolic link at `link` (its folder made), replacing whatever was there."""
    link.parent.mkdir(parents=True, exist_ok=True)
    if link.is_dir() and not link.is_symlink():
        shutil.rmtree(link)
    else:
        link.unlink(missing_ok=True)
    link.symlink_to(target)


def saves_cmd(saves: Path, *args: str) -> int:
    return main(["saves", *args, "--saves-dir", str(saves)])


# --- 10. planted notes, locks, links and folders ----------------------------------------


def test_a_planted_export_note_removes_nothing_it_names(
    saves: Path, outside: Outside, capsys: pytest.CaptureFixture[str]
) -> None:
    make_slot(saves, "s1")
    notes = saves / EXPORTS_DIR
    notes.mkdir()
    looks_like_temp = outside.file("report.pdf.ab12cd34.tmp")
    real = looks_like_temp.stat()
    planted = {
        "tmpaaaa1111.export": str(outside.file()).encode(),  # the old format: a path
        "tmpbbbb2222.export": str(looks_like_temp).encode(),
        # The right device, the wrong inode: not the file an export made.
        "tmpcccc3333.export": f"{real.st_dev} {real.st_ino + 1} {looks_like_temp}".encode(),
        # Device and inode of a file not named as temps are.
        "tmpdddd4444.export": f"{real.st_dev} {outside.file().stat().st_ino} "
        f"{outside.file()}".encode(),
        "tmpeeee5555.export": b"\x00\xff garbage",
    }
    for name, body in planted.items():
        (notes / name).write_bytes(body)
    os.mkfifo(notes / "tmpffff6666.export")  # a FIFO never hangs the tidy-up
    before = digest(saves / "s1")
    assert saves_cmd(saves, "list") == 0
    assert "s1" in capsys.readouterr().out
    outside.assert_untouched()
    assert digest(saves / "s1") == before


def test_an_exports_folder_that_is_a_link_is_never_looked_into(
    saves: Path, outside: Outside, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    make_slot(saves, "s1")
    (outside.root / "tmpaaaa1111.export").unlink(missing_ok=True)
    plant_link(saves / EXPORTS_DIR, outside.root)
    outside = Outside(outside.root, Outside._state(outside.root))
    assert saves_cmd(saves, "list") == 0
    code = saves_cmd(saves, "export", "s1", str(tmp_path / "out.zip"))
    assert code == 2 and "symbolic link" in one_line(capsys.readouterr().err)
    assert not (tmp_path / "out.zip").exists()
    assert not [p for p in tmp_path.iterdir() if p.name.endswith(".tmp")]
    outside.assert_untouched()


@pytest.mark.parametrize("planted", ["lock file", "lock folder", "lock fifo"])
def test_a_planted_lock_is_refused_in_one_line_and_truncates_nothing(
    saves: Path, outside: Outside, planted: str
) -> None:
    make_slot(saves, "s1")
    locks = saves / ".locks"
    if planted == "lock file":
        plant_link(locks / "s1.lock", outside.file())
    elif planted == "lock folder":
        shutil.rmtree(locks, ignore_errors=True)
        plant_link(locks, outside.root)
    else:
        locks.mkdir(exist_ok=True)
        os.mkfifo(locks / "s1.lock")
    out = run(saves, "chat", "tobin", "hello", "--provider", "scripted", "--slot", "s1")
    assert out.returncode == 2, out.stderr
    line = one_line(out.stderr)
    assert "cannot lock slot 's1'" in line and ("symbolic link" in line or "FIFO" in line)
    with pytest.raises(SaveError, match="remove it"):
        SlotLock(saves, "s1", "a test").acquire()
    outside.assert_untouched()


@pytest.mark.parametrize(
    "link", ["npcs/tobin", "npcs/tobin/session", "npcs/tobin/session/events.jsonl", "npcs"]
)
def test_an_npc_folder_link_gets_no_line_written_outside(
    saves: Path, outside: Outside, link: str
) -> None:
    make_slot(saves, "s1")
    target = {
        "npcs/tobin": outside.root,
        "npcs/tobin/session": outside.root / "session",
        "npcs/tobin/session/events.jsonl": outside.file("session/events.jsonl"),
        "npcs": outside.root,
    }[link]
    plant_link(saves / "s1" / link, target)
    store = SessionStore(saves, "s1")
    with pytest.raises(UnsafePath, match="symbolic link"):
        store.append("tobin", UserMessage(text="to be written"))
    store.close()
    with pytest.raises(UnsafePath):
        check_inside(saves, saves / "s1" / "npcs" / "tobin" / "session" / "events.jsonl")
    outside.assert_untouched()


def test_chat_on_a_slot_with_an_npc_link_is_refused_in_one_line(
    saves: Path, outside: Outside
) -> None:
    make_slot(saves, "s1")
    plant_link(saves / "s1" / "npcs" / "tobin", outside.root)
    out = run(saves, "chat", "tobin", "hello", "--provider", "scripted", "--slot", "s1")
    assert out.returncode == 2, out.stderr
    line = one_line(out.stderr)
    assert "slot 's1' cannot be used" in line and "npcs/tobin is a symbolic link" in line
    outside.assert_untouched()


@pytest.mark.parametrize(
    "link",
    [
        "thumbnail.png",
        "world.json.bak",
        "world_summary.txt",
        "npcs/tobin/memory/summary.txt",
        "npcs/brenna",
        "notes.txt",
    ],
)
def test_a_slot_holding_a_link_is_listed_as_such_never_read_and_deletes_cleanly(
    saves: Path, outside: Outside, link: str, capsys: pytest.CaptureFixture[str]
) -> None:
    make_slot(saves, "s1")
    make_slot(saves, "fine")
    target = outside.root if link == "npcs/brenna" else outside.file()
    plant_link(saves / "s1" / link, target)
    info = next(i for i in list_slots(saves) if i.slot == "s1")
    assert not info.loadable and info.error is not None and "symbolic link" in info.error
    assert info.thumbnail is None
    assert next(i for i in list_slots(saves) if i.slot == "fine").loadable
    assert slot_info(saves, "s1").error == info.error
    with pytest.raises(SaveError, match="cannot be used"):
        SlotLock(saves, "s1", "the game").acquire()  # what the game and chat take first
    code = saves_cmd(saves, "export", "s1", str(outside.root.parent / "s1.zip"))
    assert code == 2 and "symbolic link" in one_line(capsys.readouterr().err)
    assert saves_cmd(saves, "delete", "s1", "--yes") == 0
    assert not os.path.lexists(saves / "s1") and (saves / "fine").is_dir()
    outside.assert_untouched()


def test_a_slot_that_is_a_link_is_listed_never_used_and_replaced_only_by_an_import(
    saves: Path, outside: Outside, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    other = tmp_path / "other"
    make_slot(other, "evil")
    archive = tmp_path / "evil.zip"
    export_slot(other, "evil", archive)
    shutil.copytree(other / "evil", outside.root / "slot")
    outside = Outside(outside.root, Outside._state(outside.root))
    saves.mkdir(exist_ok=True)
    plant_link(saves / "evil", outside.root)
    plant_link(saves / "slotlink", outside.root / "slot")

    assert saves_cmd(saves, "list") == 0  # the tidy-up never walks into a linked slot
    listed = capsys.readouterr().out
    assert "cannot load" in listed and "evil is a symbolic link" in listed
    out = run(saves, "chat", "tobin", "hello", "--provider", "scripted", "--slot", "slotlink")
    assert out.returncode == 2 and "symbolic link" in one_line(out.stderr)
    for args in (
        ["export", "slotlink", str(tmp_path / "x.zip")],
        ["delete", "evil", "--yes"],
        ["import", str(archive)],  # exists: --force is needed
    ):
        assert saves_cmd(saves, *args) == 2, args
        one_line(capsys.readouterr().err)
    assert saves_cmd(saves, "import", str(archive), "--force") == 0
    assert (saves / "evil").is_dir() and not (saves / "evil").is_symlink()
    assert next(i for i in list_slots(saves) if i.slot == "evil").loadable
    outside.assert_untouched()


def test_planted_leftovers_are_removed_without_following_a_link(
    saves: Path, outside: Outside
) -> None:
    make_slot(saves, "s1")
    plant_link(saves / ".deleted-s1-11", outside.root)
    plant_link(saves / ".import-s1-12", outside.root)
    plant_link(saves / ".copy-s2", outside.root)
    plant_link(saves / ".trash-gone-13", outside.root)  # its slot is missing
    deleted = saves / ".deleted-old-14"
    deleted.mkdir()
    plant_link(deleted / "inner", outside.root)
    plant_link(deleted / "file", outside.file())
    before = digest(saves / "s1")
    temp = saves / "s1" / "world.json.zz99yy88.tmp"
    plant_link(temp, outside.file("world.json.ab12cd34.tmp"))
    tidy_saves(saves)
    assert sorted(p.name for p in saves.iterdir()) == [".locks", "s1"]
    assert not os.path.lexists(temp) and digest(saves / "s1") == before
    assert [i.slot for i in list_slots(saves)] == ["s1"]
    outside.assert_untouched()


def test_a_planted_ready_folder_never_becomes_a_slot(
    saves: Path, outside: Outside, tmp_path: Path
) -> None:
    make_slot(tmp_path / "other", "planted")
    shutil.copytree(tmp_path / "other" / "planted", saves / ".ready-planted-77")
    plant_link(saves / ".ready-linked-78", outside.root)
    notes = tidy_saves(saves)
    assert not os.path.lexists(saves / "planted") and not os.path.lexists(saves / "linked")
    assert [p.name for p in saves.iterdir() if p.name.startswith(".ready")] == []
    assert any("import it again" in n and "'planted'" in n for n in notes)
    assert list_slots(saves) == []
    outside.assert_untouched()


def test_a_trash_folder_holding_a_link_is_not_put_back(saves: Path, outside: Outside) -> None:
    trash = saves / ".trash-old-5"
    make_slot(saves, "old")
    (saves / "old").rename(trash)
    plant_link(trash / "npcs" / "brenna", outside.root)
    notes = tidy_saves(saves)
    assert not os.path.lexists(saves / "old") and trash.is_dir()
    assert any("was not put back" in n and "symbolic link" in n for n in notes)
    outside.assert_untouched()


def test_an_import_never_unpacks_through_a_planted_folder(
    saves: Path, outside: Outside, tmp_path: Path
) -> None:
    make_slot(tmp_path / "other", "game")
    archive = tmp_path / "game.zip"
    export_slot(tmp_path / "other", "game", archive)
    pid = os.getpid()
    plant_link(saves / f".import-game-{pid}", outside.root)
    plant_link(saves / f".ready-game-{pid}", outside.root / "session")
    assert import_slot(saves, archive)[0] == "game"
    assert next(i for i in list_slots(saves) if i.slot == "game").loadable
    outside.assert_untouched()


def test_check_tree_finds_a_link_a_fifo_or_a_device_anywhere(tmp_path: Path) -> None:
    slot = tmp_path / "saves" / "s1"
    (slot / "npcs" / "a" / "session").mkdir(parents=True)
    (slot / "npcs" / "a" / "session" / "events.jsonl").write_text("")
    check_tree(slot)
    check_tree(tmp_path / "saves" / "missing")
    os.mkfifo(slot / "npcs" / "a" / "session" / "state.json")
    with pytest.raises(UnsafePath, match="is a FIFO"):
        check_tree(slot)


# --- 7. an export never writes into the saves folder or over what is not a file ------------


@pytest.mark.parametrize(
    "target",
    [
        "s1/world.json",
        "s1/npcs/tobin/session/events.jsonl",
        ".locks/s1.lock",
        "s1/new.zip",
        "new.zip",
        "link-to-world",
        "link-to-slot/new.zip",
    ],
)
def test_an_export_into_the_saves_folder_is_refused(
    saves: Path, tmp_path: Path, target: str, capsys: pytest.CaptureFixture[str]
) -> None:
    make_slot(saves, "s1")
    (saves / ".locks").mkdir(exist_ok=True)
    (saves / ".locks" / "s1.lock").touch()
    (tmp_path / "link-to-world").symlink_to(saves / "s1" / "world.json")
    (tmp_path / "link-to-slot").symlink_to(saves / "s1")
    path = tmp_path / target if target.startswith("link") else saves / target
    before = digest(saves)
    code = saves_cmd(saves, "export", "s1", str(path), "--force")
    line = one_line(capsys.readouterr().err)
    assert code == 2 and "refusing to export into the saves folder" in line
    assert digest(saves) == before
    assert sorted(p.name for p in saves.iterdir()) == [".locks", "s1"]


@pytest.mark.parametrize("kind", ["device", "fifo", "folder", "link to a file"])
def test_an_export_over_what_is_not_a_regular_file_is_refused(
    saves: Path, outside: Outside, kind: str, capsys: pytest.CaptureFixture[str]
) -> None:
    make_slot(saves, "s1")
    spot = outside.root.parent
    target = {
        "device": Path(os.devnull),
        "fifo": spot / "pipe.zip",
        "folder": spot / "folder.zip",
        "link to a file": spot / "link.zip",
    }[kind]
    if kind == "fifo":
        os.mkfifo(target)
    elif kind == "folder":
        target.mkdir()
    elif kind == "link to a file":
        target.symlink_to(outside.file())
    mode = target.lstat().st_mode
    code = saves_cmd(saves, "export", "s1", str(target), "--force")
    line = one_line(capsys.readouterr().err)
    assert code == 2 and "not a file" in line and "--force only replaces a regular file" in line
    assert target.lstat().st_mode == mode
    assert not [p for p in spot.iterdir() if p.name.endswith(".tmp")]
    outside.assert_untouched()


def test_an_export_with_force_replaces_a_regular_file(saves: Path, tmp_path: Path) -> None:
    make_slot(saves, "s1")
    target = tmp_path / "old.zip"
    target.write_text("an old export")
    assert saves_cmd(saves, "export", "s1", str(target)) == 2  # exists: --force is needed
    assert target.read_text() == "an old export"
    assert saves_cmd(saves, "export", "s1", str(target), "--force") == 0
    with zipfile.ZipFile(target) as zf:
        assert "s1/world.json" in zf.namelist()


# --- 9. what a slot says reaches the terminal as one clean line --------------------------

HOSTILE = "\x1b]52;c;cm0gLXJmIH4=\x07Evil\x1b[2J\rName\nsecond line\x9b31m\u202e"


def test_escapes_in_a_shared_save_never_reach_the_terminal(saves: Path) -> None:
    import json

    make_slot(saves, "s1")
    meta_path = saves / "s1" / "meta.json"
    meta = json.loads(meta_path.read_text())
    meta.update(name=HOSTILE, player_name=HOSTILE)
    meta_path.write_text(json.dumps(meta))
    assert "\x1b" in list_slots(saves)[0].name  # the slot says it; the terminal never sees it
    listed = run(saves, "saves", "list")
    shown = run(saves, "saves", "show", "s1")
    for out in (listed, shown):
        assert out.returncode == 0, out.stderr
        assert not set("\x1b\x07\r\x9b\u202e") & set(out.stdout), repr(out.stdout)
    assert len(listed.stdout.splitlines()) == 2  # the header and the one slot
    assert "Evil Name second line" in listed.stdout
    lines = shown.stdout.splitlines()
    assert "name:       Evil Name second line" in lines
    assert "player:     Evil Name second line" in lines


@pytest.mark.parametrize(
    ("text", "line"),
    [
        ("plain Anne", "plain Anne"),
        ("Ann\x1b]52;c;aGk=\x07e", "Anne"),  # OSC 52 (the clipboard), BEL-terminated
        ("Ann\x1b]0;title\x1b\\e", "Anne"),  # OSC ended by ST
        ("x\x1b[2Jy\x1b[?25l", "xy"),  # clear screen, hide cursor
        ("a\rb\r\nc\td", "a b c d"),
        ("\x9b31mred\x9dtitle\x9c!", "red!"),  # C1 controls
        ("cut\x1b]52;c;never ends", "cut"),
        ("bidi \u202egnp.exe", "bidi gnp.exe"),
        ("line\u2028sep\x85nel", "line sep nel"),
        ("é ✓ 🙂\x00\x7f", "é ✓ 🙂"),
        ("lone\x1b", "lone"),
    ],
)
def test_clean_line_leaves_one_line_without_escapes(text: str, line: str) -> None:
    assert clean_line(text) == line
    assert clean_line(line) == line


# --- 16. an import zip's members are counted before anything is read --------------------


def raw_zip(names: list[str], *, declared: int | None = None, zip64: bool = False) -> bytes:
    """A stored zip of one-byte members, written by hand (zipfile takes seconds for 10^5);
    `declared` overrides the member count of its end record, `zip64` adds a zip64 one."""
    local, central = bytearray(), bytearray()
    crc = zipfile.crc32(b"x")
    for name in names:
        raw = name.encode()
        offset = len(local)
        local += struct.pack("<4s5H3L2H", b"PK\x03\x04", 20, 0, 0, 0, 0x21, crc, 1, 1, len(raw), 0)
        local += raw + b"x"
        central += struct.pack(
            "<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 0, 0, 0x21, crc, 1, 1, len(raw), 0, 0, 0, 0,
            0, offset,
        )  # fmt: skip
        central += raw
    count = len(names) if declared is None else declared
    end = b""
    if zip64:
        at = len(local) + len(central)
        end += struct.pack(
            "<4sQ2H2L4Q", b"PK\x06\x06", 44, 45, 45, 0, 0, count, count, len(central), len(local)
        )
        end += struct.pack("<4sLQL", b"PK\x06\x07", 0, at, 1)
        count = 0xFFFF
    end += struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, count, count, len(central), len(local), 0)
    return bytes(local + central + end)


def test_an_import_of_100000_members_is_refused_before_its_list_is_read(
    saves: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    archive = tmp_path / "many.zip"
    names = [f"many/npcs/n{i}/session/state.json" for i in range(100_000)]
    archive.write_bytes(raw_zip(names, zip64=True))
    with zipfile.ZipFile(archive) as zf:  # a real zip (zip64: more than 65,535 members)
        assert len(zf.infolist()) == 100_000

    def parsed(*args: object) -> None:
        raise AssertionError("the list of members was parsed")

    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", parsed)
    with pytest.raises(ArchiveError, match="100,000 members, more than the"):
        import_slot(saves, archive)
    code = saves_cmd(saves, "import", str(archive))
    line = one_line(capsys.readouterr().err)
    assert code == 2 and "100,000 members" in line and f"{MAX_IMPORT_MEMBERS:,}" in line
    assert list(saves.iterdir()) == []  # nothing unpacked, not even a lock taken


def test_a_zip_that_understates_its_members_is_refused_before_its_list_is_parsed(
    saves: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = [f"many/npcs/n{i}/session/state.json" for i in range(MAX_IMPORT_MEMBERS + 1)]
    honest, liar, tiny = tmp_path / "honest.zip", tmp_path / "liar.zip", tmp_path / "tiny.zip"
    honest.write_bytes(raw_zip(names))
    liar.write_bytes(raw_zip(names, declared=3))
    # The most a list of members may take, in entries as short as they come.
    tiny.write_bytes(raw_zip(["a"] * (MAX_IMPORT_INDEX_BYTES // 47), declared=3))
    with zipfile.ZipFile(liar) as zf:  # zipfile itself would take all of them
        assert len(zf.infolist()) == MAX_IMPORT_MEMBERS + 1

    def parsed(*args: object) -> None:
        raise AssertionError("the list of members was parsed")

    monkeypatch.setattr(zipfile.ZipFile, "_RealGetContents", parsed)
    with pytest.raises(ArchiveError, match=f"{MAX_IMPORT_MEMBERS + 1:,} members, more than"):
        import_slot(saves, honest)
    for archive in (liar, tiny):
        with pytest.raises(ArchiveError, match=f"more members than the {MAX_IMPORT_MEMBERS:,}"):
            import_slot(saves, archive)
    assert list(saves.iterdir()) == []


def test_a_zip_at_the_member_bound_imports(saves: Path, tmp_path: Path) -> None:
    make_slot(tmp_path / "other", "full")
    plain = tmp_path / "plain.zip"
    export_slot(tmp_path / "other", "full", plain)
    archive = tmp_path / "full.zip"
    with zipfile.ZipFile(plain) as src, zipfile.ZipFile(archive, "w") as zf:
        members = src.namelist()
        for name in members:
            zf.writestr(name, src.read(name))
        for i in range(MAX_IMPORT_MEMBERS - len(members)):  # folders, as a zip tool lists
            zf.writestr(zipfile.ZipInfo(f"full/npcs/n{i}/"), b"")
    with zipfile.ZipFile(archive) as zf:
        assert len(zf.infolist()) == MAX_IMPORT_MEMBERS
    assert import_slot(saves, archive)[0] == "full"
    assert next(i for i in list_slots(saves) if i.slot == "full").loadable


def test_a_small_zip64_archive_is_counted_as_zipfile_reads_it(saves: Path, tmp_path: Path) -> None:
    archive = tmp_path / "small64.zip"
    archive.write_bytes(raw_zip(["z/world_summary.txt", "z/npcs/a/memory/summary.txt"], zip64=True))
    assert import_slot(saves, archive) == ("z", ["npcs/a/memory/summary.txt", "world_summary.txt"])
    assert (saves / "z" / "world_summary.txt").read_bytes() == b"x"


def test_a_member_named_twice_is_refused(saves: Path, tmp_path: Path) -> None:
    archive = tmp_path / "twice.zip"
    archive.write_bytes(raw_zip(["twice/world_summary.txt", "twice/world_summary.txt"]))
    with pytest.raises(ArchiveError, match=r"'twice/world_summary\.txt' twice"):
        import_slot(saves, archive)
    assert list(saves.iterdir()) == []
