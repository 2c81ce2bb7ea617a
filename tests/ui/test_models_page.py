"""The Settings screen's Models page: the catalogue's rows and buttons, a download's bar,
message and Cancel, one-line errors, and Use and Delete writing config.toml.

Downloads are driven by setting `Downloads.state` directly; nothing reaches the network
(HF_HUB_OFFLINE is set, and the only real `start` is refused for memory before it pulls).
"""

from __future__ import annotations

import json
import math
import tomllib
from collections.abc import Iterator
from pathlib import Path

import pytest

from game.agent.providers.local import hub as hub_module
from game.agent.providers.local.catalogue import CATALOGUE, HubFile
from game.agent.providers.local.hub import downloaded, target_of
from game.agent.providers.local.pick import Speed, SpeedBook
from game.models import Downloads, DownloadState

SMALL = CATALOGUE[-2]  # qwen3-0.6b: the one the tests "download"


class RecordingDownloads(Downloads):
    """A Downloads whose state the test sets; it records Cancel and never pulls."""

    def __init__(self) -> None:
        super().__init__()
        self.cancelled = 0
        self.started: list[str] = []

    def start(self, name: str) -> str | None:
        self.started.append(name)
        self.state = DownloadState(name, message=f"starting {name}")
        return None

    def cancel(self) -> None:
        self.cancelled += 1


@pytest.fixture
def dirs(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[Path]:
    """Config and model cache in this test's tmp dir; the network forbidden."""
    monkeypatch.setenv("NPC_VILLAGE_CONFIG_DIR", str(tmp_path / "config"))
    monkeypatch.setenv("NPC_VILLAGE_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("HF_HUB_OFFLINE", "1")
    (tmp_path / "config").mkdir()
    yield tmp_path


@pytest.fixture
def window(window: object) -> Iterator[object]:
    """The shared window, left on a plain view with its downloads closed."""
    import arcade

    from game.ui.models_page import close_downloads

    yield window
    close_downloads(window)  # type: ignore[arg-type]
    window.show_view(arcade.View())  # type: ignore[attr-defined]


def fake_download(model: HubFile, speed: Speed | None = None) -> Path:
    """Put `model` in the cache as a finished pull leaves it (a stamped file)."""
    target = target_of(model)
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_bytes(b"GGUF not really")
    st = target.stat()
    stamp = {"sha256": model.sha256, "size": st.st_size, "mtime_ns": st.st_mtime_ns}
    hub_module._stamp(target).write_text(json.dumps({**stamp, "repo": model.repo}))
    assert downloaded(model) == target
    if speed is not None:
        SpeedBook().put(target, speed)
    return target


def config(dirs: Path) -> dict[str, object]:
    return tomllib.loads((dirs / "config" / "config.toml").read_text())


def bar_pixels() -> int:
    """How many pixels of the frame just drawn have the progress bar's fill colour."""
    import arcade

    from game.ui.theme import ACCENT

    shot = arcade.get_image(0, 0, 1280, 720).convert("RGB")
    return sum(1 for c in shot.getdata() if c == tuple(ACCENT[:3]))


def shown(page: object) -> str:
    return " | ".join(page.visible_text())  # type: ignore[attr-defined]


def frame(page: object) -> None:
    page.on_update(1 / 60)  # type: ignore[attr-defined]
    page.on_draw()  # type: ignore[attr-defined]


def test_settings_opens_the_page_listing_the_catalogue(window, dirs: Path) -> None:
    import arcade

    from game.ui.models_page import ModelsPage, downloads_of
    from game.ui.settings_view import SettingsView
    from game.ui.theme import click

    fake_download(SMALL, Speed(first_letter_s=0.31, tokens_s=14.2, turns=3))
    settings = SettingsView(back=lambda: None)
    window.show_view(settings)
    click(settings.models_button)
    page = window.current_view
    assert isinstance(page, ModelsPage)
    assert page.downloads is downloads_of(window)  # the window's, outliving the page
    frame(page)

    assert [row.model.name for row in page.rows] == [m.name for m in CATALOGUE]
    text = shown(page)
    for model in CATALOGUE:
        for cell in (model.name, model.params, model.licence, model.good_for):
            assert cell in text
    assert "2.50 GB" in text and "397 MB" in text
    assert "first letter 0.31 s, 14.2 tokens/s" in text  # the speed measured here
    assert "next time the game starts" in text

    others = {m.name for m in CATALOGUE} - {SMALL.name}
    assert set(page.download_buttons) == others
    assert set(page.use_buttons) == set(page.delete_buttons) == {SMALL.name}
    assert not any(b.disabled for b in page.download_buttons.values())
    assert not page.bar.visible and not page.cancel_button.visible  # no download yet

    page.on_key_press(arcade.key.ESCAPE, 0)
    assert window.current_view is settings


def test_a_download_shows_its_bar_message_and_cancel(window, dirs: Path) -> None:
    from game.ui.models_page import ModelsPage
    from game.ui.theme import click

    downloads = RecordingDownloads()
    page = ModelsPage(back=lambda: None, downloads=downloads)
    window.show_view(page)
    frame(page)

    click(page.download_buttons["qwen3-1.7b"])
    assert downloads.started == ["qwen3-1.7b"]
    downloads.state = DownloadState("qwen3-1.7b", 0.42, "qwen3-1.7b: 538 MB of 1.28 GB")
    frame(page)
    assert page.bar.visible and page.bar.fraction == pytest.approx(0.42)
    assert page.percent.text == "42%"
    assert page.message.text == "qwen3-1.7b: 538 MB of 1.28 GB"
    assert page.cancel_button.visible and not page.cancel_button.disabled
    assert "Downloading qwen3-1.7b" in shown(page)
    filled = bar_pixels()
    assert 0.35 < filled / (page.bar.width * page.bar.height) < 0.5  # drawn, 42% full

    downloads.state = DownloadState("qwen3-1.7b", 0.9, "measuring qwen3-1.7b: turn 2")
    frame(page)
    assert page.bar.fraction == pytest.approx(0.9)
    assert bar_pixels() > 2 * filled
    assert page.message.text == "measuring qwen3-1.7b: turn 2"

    click(page.cancel_button)
    assert downloads.cancelled == 1
    assert "cancelling" in page.status.text
    downloads.state = DownloadState(
        "qwen3-1.7b", message="cancelled; Download resumes it", done=True
    )
    frame(page)
    assert not page.bar.visible and not page.cancel_button.visible
    assert page.status.text == "cancelled; Download resumes it"


def test_a_failed_download_is_one_line(window, dirs: Path) -> None:
    from game.ui.models_page import ModelsPage
    from game.ui.theme import ERROR

    downloads = RecordingDownloads()
    page = ModelsPage(back=lambda: None, downloads=downloads)
    window.show_view(page)
    downloads.state = DownloadState("qwen3-4b", 0.1, "qwen3-4b: 250 MB of 2.50 GB")
    frame(page)
    downloads.state = DownloadState(
        "qwen3-4b",
        error="the hub refused qwen3-4b (HTTP 503)\nTraceback (most recent call last):\n  ...",
        done=True,
    )
    frame(page)
    assert page.status.text == "qwen3-4b: the hub refused qwen3-4b (HTTP 503)"
    assert page.status.font_color == ERROR
    assert "Traceback" not in shown(page)
    assert not page.bar.visible and not page.cancel_button.visible
    frame(page)  # told once: a later line is not overwritten by the same error
    page.tell("something else")
    frame(page)
    assert page.status.text == "something else"


def test_a_download_that_cannot_begin_is_one_line(
    window, dirs: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from game.ui.models_page import ModelsPage
    from game.ui.theme import click

    meminfo = dirs / "meminfo"
    meminfo.write_text("MemTotal: 1000000 kB\nMemAvailable: 200000 kB\n")
    monkeypatch.setattr(hub_module, "MEMINFO", meminfo)
    downloads = Downloads()  # the real one: start() refuses before any thread or network
    page = ModelsPage(back=lambda: None, downloads=downloads)
    window.show_view(page)
    click(page.download_buttons["qwen3-4b"])
    assert not downloads.running
    frame(page)
    frame(page)
    text = page.status.text
    assert text.startswith("qwen3-4b: ") and "memory" in text and "\n" not in text
    assert text.count("qwen3-4b: ") == 1  # told once, not again from the state
    assert not page.bar.visible


def test_use_writes_config_and_settings_shows_it(window, dirs: Path) -> None:
    from game.ui.models_page import ModelsPage
    from game.ui.settings_view import SettingsView
    from game.ui.theme import click

    fake_download(SMALL)
    settings = SettingsView(back=lambda: None)
    window.show_view(settings)
    page = settings.open_models()
    assert isinstance(page, ModelsPage)
    click(page.use_buttons[SMALL.name])
    written = config(dirs)
    assert written["provider"] == "local" and written["model"] == SMALL.name
    assert SMALL.name in page.status.text
    assert "next time the game starts" in page.status.text
    assert page.use_buttons[SMALL.name].disabled  # in use now
    assert "yes · in use" in shown(page)
    frame(page)

    page.back()
    assert window.current_view is settings
    assert settings.buttons["provider"].text == "local"
    assert settings.model_input.text == SMALL.name
    settings.save()  # Save keeps the choice the page made
    assert config(dirs)["model"] == SMALL.name


def test_delete_removes_the_model_and_the_choice(window, dirs: Path) -> None:
    from game.ui.models_page import ModelsPage
    from game.ui.theme import click

    target = fake_download(SMALL)
    (dirs / "config" / "config.toml").write_text(f'provider = "local"\nmodel = "{SMALL.name}"\n')
    page = ModelsPage(back=lambda: None, downloads=RecordingDownloads())
    window.show_view(page)
    assert "yes · in use" in shown(page)
    click(page.delete_buttons[SMALL.name])
    assert not target.exists() and downloaded(SMALL) is None
    written = config(dirs)
    assert written["provider"] == "auto" and "model" not in written
    assert page.status.text.startswith(f"removed {SMALL.name}")
    assert SMALL.name in page.download_buttons and SMALL.name not in page.use_buttons
    assert page.changed
    frame(page)


def test_a_use_that_fails_is_one_line(window, dirs: Path) -> None:
    from game.ui.models_page import ModelsPage
    from game.ui.theme import ERROR, click

    fake_download(SMALL)
    (dirs / "config" / "config.toml").write_text("provider = [broken")
    page = ModelsPage(back=lambda: None, downloads=RecordingDownloads())
    window.show_view(page)
    assert "config.toml" in page.status.text  # the file cannot be read: said, not raised
    click(page.use_buttons[SMALL.name])
    assert "config.toml" in page.status.text and "\n" not in page.status.text
    assert page.status.font_color == ERROR
    assert not page.changed
    frame(page)


def test_the_page_never_raises_whatever_the_state(window, dirs: Path) -> None:
    from game.ui.models_page import ModelsPage, close_downloads, downloads_of

    downloads = downloads_of(window)
    assert downloads_of(window) is downloads
    page = ModelsPage(back=lambda: None)
    assert page.downloads is downloads
    window.show_view(page)
    long = "x" * 5000
    for state in (
        None,
        DownloadState("qwen3-4b"),
        DownloadState("qwen3-4b", math.nan, ""),
        DownloadState("qwen3-4b", 5.0, long + "\n" + long),
        DownloadState("qwen3-4b", -1.0, "a\r\nb"),
        DownloadState("qwen3-4b", 1.0, "", error="", done=True),
        DownloadState("qwen3-4b", 0.0, "", error=None, done=True),
        DownloadState(long, 0.5, long, error=long, done=True),
        None,
    ):
        downloads.state = state
        for _ in range(3):
            frame(page)
        assert "\n" not in page.status.text and "\n" not in page.message.text
        assert len(page.status.text) <= 160 and 0.0 <= page.bar.fraction <= 1.0
    page.cancel()  # nothing under way: nothing happens
    close_downloads(window)
    assert downloads_of(window) is not downloads  # a closed window's downloads are gone
