"""The files of a slot come from one table, `game.save.layout.SLOT_FILES`: a row added
travels in an export, an import and a "save as"; every file a played slot holds is a row,
and every row is a file a save writes or a reader reads; saves/README.md lists the rows."""

from __future__ import annotations

import re
import shutil
import zipfile
from collections.abc import Callable
from pathlib import Path

import pytest

from game.agent.providers.fake import FakeProvider, reply
from game.limits import KB, SLOT_FILE_BYTES
from game.save import layout
from game.save.errors import ArchiveError, TooLarge
from game.save.format import BACKUP_SUFFIX
from game.save.layout import NPC_PART, SLOT_FILES, SlotFile, slot_file
from game.save.slot_io import read_slot
from game.save.transfer import export_slot, import_slot
from game.village import Village

from .conftest import GOLDEN, talk

ROOT = Path(__file__).resolve().parents[2]


def _rows_of(slot: Path) -> set[SlotFile]:
    """The rows a slot folder's files are, asserting each file is one."""
    rows: set[SlotFile] = set()
    for path in slot.rglob("*"):
        if path.is_file():
            rel = path.relative_to(slot).as_posix()
            row = slot_file(rel)
            assert row is not None, f"{rel} is in a saved slot but not in SLOT_FILES"
            rows.add(row)
    return rows


def test_a_row_added_to_the_layout_travels_in_save_as_export_and_import(
    open_village: Callable[..., Village],
    saves: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with pytest.raises(ArchiveError, match=r"notes\.json' is not a save file"):
        import_slot(tmp_path / "elsewhere", _zip(tmp_path, "a", "notes.json"))
    notes = SlotFile("notes.json", "text", "the new file", copied=True)
    diary = SlotFile(f"npcs/{NPC_PART}/diary.txt", "text", "an NPC's own", copied=True)
    monkeypatch.setattr(layout, "SLOT_FILES", (*SLOT_FILES, notes, diary))
    monkeypatch.setitem(SLOT_FILE_BYTES, "notes.json", 1 * KB)
    monkeypatch.setitem(SLOT_FILE_BYTES, "diary.txt", 1 * KB)

    village = open_village("a")
    assert village.save().result(timeout=10).ok
    (saves / "a" / "notes.json").write_text('{"the": "new file"}')
    (saves / "a" / "npcs" / "tobin").mkdir(parents=True, exist_ok=True)
    (saves / "a" / "npcs" / "tobin" / "diary.txt").write_text("rye, warm")
    as_new = village.saves.save_as_new().result(timeout=10)  # type: ignore[union-attr]
    assert as_new.ok, as_new.message  # the game plays on in the copy: "a" is free
    copied = saves / as_new.slot
    assert (copied / "notes.json").read_text() == '{"the": "new file"}'
    assert (copied / "npcs" / "tobin" / "diary.txt").read_text() == "rye, warm"

    exported = export_slot(saves, "a", tmp_path / "a.zip")
    assert {"notes.json", "npcs/tobin/diary.txt"} <= set(exported)
    _, imported = import_slot(tmp_path / "other", tmp_path / "a.zip", "b")
    assert {"notes.json", "npcs/tobin/diary.txt"} <= set(imported)
    assert (tmp_path / "other" / "b" / "npcs" / "tobin" / "diary.txt").read_text() == "rye, warm"

    monkeypatch.setitem(SLOT_FILE_BYTES, "notes.json", 4)  # its bound is the table's too
    with pytest.raises(TooLarge, match=r"notes\.json. unpacks to"):
        import_slot(tmp_path / "third", tmp_path / "a.zip", "c")


def _zip(tmp_path: Path, slot: str, name: str) -> Path:
    archive = tmp_path / f"{slot}-{name}.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr(f"{slot}/meta.json", "{}")
        zf.writestr(f"{slot}/{name}", "{}")
    return archive


def test_a_played_slot_holds_only_rows_and_every_row_is_written_or_read(
    open_village: Callable[..., Village], saves: Path
) -> None:
    shutil.copytree(GOLDEN, saves / "golden")
    village = open_village("golden", FakeProvider([reply("Aye, the rye was warm.")] * 3))
    talk(village, "tobin", "How was the rye?")
    assert village.save().result(timeout=10).ok and village.save().result(timeout=10).ok
    played = _rows_of(saves / "golden")
    assert played == set(SLOT_FILES), "a row no save writes and no slot holds"
    assert (saves / "golden" / f"world.json{BACKUP_SUFFIX}").is_file()
    data = read_slot(saves, "golden")  # every row a load reads is read
    assert not data.warnings and data.world is not None and data.meta.map_id == "village"
    assert data.world_summary and data.npc_summaries["tobin"] and data.life.boards

    as_new = village.saves.save_as_new().result(timeout=10)  # type: ignore[union-attr]
    assert as_new.ok, as_new.message
    copied = _rows_of(saves / as_new.slot)
    assert {r for r in SLOT_FILES if r.copied} <= copied
    written = {r for r in SLOT_FILES if r.reader in ("meta", "world", "life")}
    assert copied == {r for r in SLOT_FILES if r.copied} | written, "a copy copies no more"


def test_saves_readme_lists_the_rows_of_the_layout() -> None:
    text = (ROOT / "saves" / "README.md").read_text(encoding="utf-8")
    block = re.search(r"## A slot\n.*?```\n<slot>/\n(.*?)```", text, re.S)
    assert block is not None, "saves/README.md has the slot's table under '## A slot'"
    listed = [line.split(None, 1) for line in block.group(1).splitlines()]
    expected: list[list[str]] = []
    for row in SLOT_FILES:
        expected.append([row.path, row.about])
        if row.backup:
            expected.append(
                [row.path + BACKUP_SUFFIX, f"the previous {row.path}, kept by every save"]
            )
    assert listed == expected
