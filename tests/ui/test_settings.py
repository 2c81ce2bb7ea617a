"""Settings round-trip through config.toml, and an API key is never shown back."""

from __future__ import annotations

from pathlib import Path

import pytest

from game.config import load_settings

KEY = "sk-test-abcdefghijklmnop-1234"


@pytest.fixture
def config_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("NPC_VILLAGE_CONFIG_DIR", str(tmp_path))
    return tmp_path


def type_into(window, field, text: str) -> None:
    field.activate()
    for ch in text:
        window.dispatch_event("on_text", ch)
    window.dispatch_events()
    field.deactivate()


def test_settings_round_trip_and_key_never_shown(window, config_dir: Path) -> None:
    import arcade

    from game.ui.settings_view import SettingsView

    closed = []
    view = SettingsView(back=lambda: closed.append(True))
    window.show_view(view)
    view.press("provider")  # auto -> local
    view.press("provider")  # local -> scripted
    view.press("provider")  # scripted -> openai
    view.press("idle_chatter")
    view.press("text_speed")
    view.press("text_scale")
    type_into(window, view.model_input, "gpt-4o-mini")
    type_into(window, view.key_input, KEY)
    assert view.key_input.text == "•" * len(KEY)
    view.on_draw()
    view.save()
    assert "Saved to" in view.status.text

    saved = load_settings(env={"NPC_VILLAGE_CONFIG_DIR": str(config_dir)}, cwd=config_dir)
    assert saved.provider == "openai"
    assert saved.model == "gpt-4o-mini"
    assert saved.idle_chatter is False
    assert saved.text_speed == 2.0 and saved.text_scale == 1.25
    assert saved.openai_api_key is not None and saved.openai_api_key.get_secret_value() == KEY
    assert KEY in (config_dir / "config.toml").read_text()  # stored only in that file

    for text in view.visible_text():
        assert KEY not in text and KEY[:12] not in text
    again = SettingsView(back=lambda: None)
    window.show_view(again)
    again.on_draw()
    shown = " ".join(again.visible_text())
    assert KEY not in shown and "1234" in shown  # redacted: the tail only
    assert again.buttons["provider"].text == "openai"
    again.on_key_press(arcade.key.ESCAPE, 0)
    window.show_view(arcade.View())


def test_backspace_in_the_key_field_edits_the_hidden_key(window, config_dir: Path) -> None:
    import arcade

    from game.ui.settings_view import SettingsView

    view = SettingsView(back=lambda: None)
    window.show_view(view)
    type_into(window, view.key_input, "abcd")
    view.key_input.activate()
    window.dispatch_event("on_text_motion", arcade.key.MOTION_BACKSPACE)
    window.dispatch_events()
    assert view.key_input.text == "•••"
    type_into(window, view.key_input, "X")
    view.save()
    saved = load_settings(env={"NPC_VILLAGE_CONFIG_DIR": str(config_dir)}, cwd=config_dir)
    assert saved.openai_api_key is not None and saved.openai_api_key.get_secret_value() == "abcX"
    window.show_view(arcade.View())


def test_a_broken_config_file_is_one_line_on_screen(window, config_dir: Path) -> None:
    import arcade

    from game.ui.settings_view import SettingsView

    (config_dir / "config.toml").write_text("provider = [broken")
    view = SettingsView(back=lambda: None)
    window.show_view(view)
    assert "config.toml" in view.status.text and "\n" not in view.status.text
    window.show_view(arcade.View())
