"""A copy of a GGUF with a chat template of the test's choosing, for tests of the template path."""

from __future__ import annotations

import mmap
import os
import shutil
import struct
import tempfile
from pathlib import Path

import pytest

# Without the dev extra the tests that use this skip, rather than stop the collection.
pytest.importorskip("gguf", reason="gguf is not installed: pip install -e '.[local,dev]'")
from gguf import GGUF_DEFAULT_ALIGNMENT, GGUF_MAGIC, GGUFValueType, Keys

TEMPLATE_KEY = Keys.Tokenizer.CHAT_TEMPLATE  # "tokenizer.chat_template"
_SIZES = {
    GGUFValueType.UINT8: 1,
    GGUFValueType.INT8: 1,
    GGUFValueType.BOOL: 1,
    GGUFValueType.UINT16: 2,
    GGUFValueType.INT16: 2,
    GGUFValueType.UINT32: 4,
    GGUFValueType.INT32: 4,
    GGUFValueType.FLOAT32: 4,
    GGUFValueType.UINT64: 8,
    GGUFValueType.INT64: 8,
    GGUFValueType.FLOAT64: 8,
}


class _Scan:
    """Walks a little-endian GGUF (v2/v3) header: keys, value types, byte spans."""

    def __init__(self, buf: mmap.mmap) -> None:
        self.buf, self.pos = buf, 0

    def take(self, fmt: str) -> int:
        """The next integer of struct format `fmt`."""
        (value,) = struct.unpack_from(fmt, self.buf, self.pos)
        self.pos += struct.calcsize(fmt)
        return int(value)

    def string(self) -> bytes:
        """The next length-prefixed string."""
        start = self.pos + 8
        self.pos = start + self.take("<Q")
        return self.buf[start : self.pos]

    def skip(self, kind: int) -> None:
        """Step over one value of GGUF type `kind` (arrays of strings a string at a time)."""
        if kind == GGUFValueType.STRING:
            self.pos += 8 + struct.unpack_from("<Q", self.buf, self.pos)[0]
        elif kind == GGUFValueType.ARRAY:
            item, count = self.take("<I"), self.take("<Q")
            if item in _SIZES:
                self.pos += _SIZES[GGUFValueType(item)] * count
            else:
                for _ in range(count):
                    self.skip(item)
        else:
            self.pos += _SIZES[GGUFValueType(kind)]


def _string(text: str) -> bytes:
    """A GGUF string: u64 length, then UTF-8 bytes."""
    data = text.encode("utf-8")
    return struct.pack("<Q", len(data)) + data


def _aligned(n: int, alignment: int) -> int:
    """`n` rounded up to a multiple of `alignment`."""
    return -(-n // alignment) * alignment


def make_chat_gguf(source: Path, target: Path, template: str) -> Path:
    """Copy `source` to `target` with `tokenizer.chat_template` set to `template`; return `target`.

    Every other key/value and tensor is copied byte for byte (the template keys, including
    named ones `tokenizer.chat_template.*`, are dropped and the new one appended), so a
    253 MB model takes about a second; GGUFReader alone needs ~10 s to parse its vocabulary.
    The copy is written to a temporary file beside `target` and renamed into place.
    """
    target.parent.mkdir(parents=True, exist_ok=True)
    with source.open("rb") as src, mmap.mmap(src.fileno(), 0, access=mmap.ACCESS_READ) as buf:
        scan = _Scan(buf)
        magic, version = scan.take("<I"), scan.take("<I")
        if magic != GGUF_MAGIC or version not in (2, 3):
            raise ValueError(f"{source}: not a little-endian GGUF v2/v3 file")
        n_tensors, n_kv = scan.take("<Q"), scan.take("<Q")
        kept: list[tuple[int, int]] = []
        alignment = GGUF_DEFAULT_ALIGNMENT
        for _ in range(n_kv):
            start = scan.pos
            key, kind = scan.string().decode("utf-8"), scan.take("<I")
            if key == Keys.General.ALIGNMENT and kind == GGUFValueType.UINT32:
                alignment = struct.unpack_from("<I", buf, scan.pos)[0]
            scan.skip(kind)
            if key != TEMPLATE_KEY and not key.startswith(TEMPLATE_KEY + "."):
                kept.append((start, scan.pos))
        infos = scan.pos
        for _ in range(n_tensors):  # name, n_dims, dims, type, offset (relative to the data)
            scan.string()
            n_dims = scan.take("<I")
            scan.pos += 8 * n_dims + 4 + 8
        data = _aligned(scan.pos, alignment)

        fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
        try:
            with os.fdopen(fd, "wb") as out:
                out.write(struct.pack("<IIQQ", magic, version, n_tensors, len(kept) + 1))
                for start, end in kept:
                    out.write(buf[start:end])
                out.write(_string(TEMPLATE_KEY))
                out.write(struct.pack("<I", GGUFValueType.STRING) + _string(template))
                out.write(buf[infos : scan.pos])
                out.write(bytes(_aligned(out.tell(), alignment) - out.tell()))
                src.seek(data)
                shutil.copyfileobj(src, out, 16 << 20)
            shutil.copymode(source, name)
            os.replace(name, target)
        except BaseException:
            Path(name).unlink(missing_ok=True)
            raise
    return target
