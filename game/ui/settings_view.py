"""Settings: provider, model, base URL, idle chatter, text speed and size, volume, API key.

Changes are written to `config.toml` in the user config dir, the same file the command
line reads, and take effect the next time a game is opened. An API key can be typed in
but is never shown back: the field shows bullets, and the saved key shows as `sk-…1234`.
The Models button opens the page that downloads, uses and deletes local models.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

import arcade
import arcade.gui

from game.agent.providers.registry import PROVIDER_NAMES, REGISTRY, REMOTE_PROVIDERS
from game.config import (
    KEY_FIELDS,
    ConfigError,
    Settings,
    config_path,
    load_settings,
    redact,
    update_config,
)
from game.ui.line_input import LineInput
from game.ui.models_page import ModelsPage, downloads_of
from game.ui.theme import ERROR, HEADING_SIZE, INK, MUTED, PANEL, STATUS_SIZE, button

# The choices that need no key and no network come first.
PROVIDERS = tuple(sorted(PROVIDER_NAMES, key=lambda name: name in REMOTE_PROVIDERS))
SPEEDS = (0.5, 1.0, 2.0, 8.0)  # 8: show at once
SCALES = (0.8, 1.0, 1.25, 1.5)
VOLUMES = (0.0, 0.25, 0.5, 0.75, 1.0)
BULLET = "•"


def _next(options: tuple[Any, ...], current: Any) -> Any:
    return (
        options[(options.index(current) + 1) % len(options)] if current in options else options[0]
    )


def _key_field(provider: str) -> str:
    """The setting a key typed for `provider` goes to: its own, else the first (OpenAI's,
    which `auto` tries first)."""
    spec = REGISTRY.get(provider)
    return spec.key_field if spec is not None and spec.key_field else KEY_FIELDS[0]


def _speed_label(speed: float) -> str:
    return "instant" if speed >= 8 else f"{speed:g}x"


class SettingsView(arcade.gui.UIView):
    """The settings screen; `back` returns to whoever opened it."""

    def __init__(self, back: Callable[[], None], config_file: Path | None = None) -> None:
        super().__init__()
        self.back = back
        self.config_file = config_file or config_path()
        self.background_color = arcade.types.Color(16, 18, 26)
        try:
            # What the file holds, not what the environment adds on top of it.
            current = load_settings(
                config_file=self.config_file, env={}, cwd=self.config_file.parent
            )
        except ConfigError as exc:
            current = Settings()
            self._load_error = str(exc)
        else:
            self._load_error = ""
        self.values: dict[str, Any] = {
            "provider": current.provider,
            "idle_chatter": current.idle_chatter,
            "text_speed": current.text_speed,
            "text_scale": current.text_scale,
            "volume": current.volume,
        }
        self.saved_key = redact(self._key_of(current))
        self._secret = ""
        self._masking = False
        self._build(current)

    @staticmethod
    def _key_of(settings: Settings) -> str | None:
        """The provider's own key, else the first key saved."""
        fields = (_key_field(settings.provider), *KEY_FIELDS)
        return next((k for k in map(settings.api_key, fields) if k), None)

    # --- layout -----------------------------------------------------------------------

    def _cycler(self, name: str) -> arcade.gui.UIFlatButton:
        """The button that cycles setting `name`; `_refresh` writes its value on it."""
        return button("", partial(self.press, name), width=300, height=36)

    def _row(self, label: str, widget: arcade.gui.UIWidget) -> arcade.gui.UIBoxLayout:
        row = arcade.gui.UIBoxLayout(vertical=False, space_between=12)
        row.add(arcade.gui.UILabel(text=label, width=170, font_size=12, text_color=MUTED))
        row.add(widget)
        return row

    def _build(self, current: Settings) -> None:
        self.buttons = {
            name: self._cycler(name)
            for name in ("provider", "idle_chatter", "text_speed", "text_scale", "volume")
        }
        self.model_input = LineInput(width=300, height=32, text=current.model or "", font_size=12)
        self.url_input = LineInput(width=300, height=32, text=current.base_url or "", font_size=12)
        self.key_input = LineInput(width=300, height=32, font_size=12)
        self.key_input.event("on_change")(self._mask_key)
        self.key_note = arcade.gui.UILabel(
            text=f"saved: {self.saved_key}" if self.saved_key else "no key saved",
            font_size=10,
            text_color=MUTED,
            width=300,
        )
        self.status = arcade.gui.UILabel(
            text=self._load_error,
            font_size=STATUS_SIZE,
            text_color=ERROR if self._load_error else MUTED,
            width=520,
        )
        box = arcade.gui.UIBoxLayout(vertical=True, space_between=8, align="left")
        box.add(arcade.gui.UILabel(text="Settings", font_size=HEADING_SIZE, text_color=INK))
        box.add(self._row("Provider", self.buttons["provider"]))
        box.add(self._row("Model", self.model_input))
        box.add(self._row("Base URL", self.url_input))
        box.add(self._row("API key", self.key_input))
        box.add(self._row("", self.key_note))
        box.add(self._row("Idle chatter", self.buttons["idle_chatter"]))
        box.add(self._row("Text speed", self.buttons["text_speed"]))
        box.add(self._row("Text size", self.buttons["text_scale"]))
        box.add(self._row("Volume", self.buttons["volume"]))
        actions = arcade.gui.UIBoxLayout(vertical=False, space_between=12)
        save = button("Save", self.save, width=150)
        models = button("Models", self.open_models, width=150)
        back = button("Back", lambda: self.back(), width=150)
        self.save_button, self.models_button, self.back_button = save, models, back
        actions.add(save)
        actions.add(models)
        actions.add(back)
        box.add(actions)
        box.add(self.status)
        anchor = arcade.gui.UIAnchorLayout()
        anchor.add(box.with_padding(all=20).with_background(color=PANEL))
        self.add_widget(anchor)
        self._refresh()

    def _refresh(self) -> None:
        v = self.values
        self.buttons["provider"].text = str(v["provider"])
        self.buttons["idle_chatter"].text = "on" if v["idle_chatter"] else "off"
        self.buttons["text_speed"].text = _speed_label(float(v["text_speed"]))
        self.buttons["text_scale"].text = f"{float(v['text_scale']):g}x"
        self.buttons["volume"].text = "muted" if not v["volume"] else f"{int(v['volume'] * 100)}%"

    # --- actions ----------------------------------------------------------------------

    def press(self, name: str) -> None:
        """Cycle a setting to its next value."""
        v = self.values
        if name == "provider":
            v[name] = _next(PROVIDERS, v[name])
        elif name == "idle_chatter":
            v[name] = not v[name]
        elif name == "text_speed":
            v[name] = _next(SPEEDS, v[name])
        elif name == "text_scale":
            v[name] = _next(SCALES, v[name])
        elif name == "volume":
            v[name] = _next(VOLUMES, v[name])
        self._refresh()

    def open_models(self) -> ModelsPage:
        """Open the Models page (download, use, delete); Back returns here."""
        page = ModelsPage(
            back=lambda: self._back_from_models(page),
            config_file=self.config_file,
            downloads=downloads_of(self.window),
        )
        self.window.show_view(page)
        return page

    def _back_from_models(self, page: ModelsPage) -> None:
        """Back here; if the page wrote a model to config.toml, show it (Save keeps it)."""
        if page.changed:
            try:
                current = load_settings(
                    config_file=self.config_file, env={}, cwd=self.config_file.parent
                )
            except ConfigError as exc:
                self.status.text = f"Not read: {exc}"
                self.status.update_font(font_color=ERROR)
            else:
                self.values["provider"] = current.provider
                self.model_input.text = current.model or ""
                self._refresh()
        self.window.show_view(self)

    def _mask_key(self, event: arcade.gui.UIOnChangeEvent) -> None:
        # The field only ever holds bullets; the typed key lives in self._secret.
        if self._masking:
            return
        new, old = str(event.new_value), str(event.old_value)
        if new.startswith(old):
            self._secret += new[len(old) :]
        else:  # backspace (or an edit): keep as many characters as bullets remain
            self._secret = self._secret[: new.count(BULLET)] + new.replace(BULLET, "")
        self._masking = True
        self.key_input.text = BULLET * len(self._secret)
        self._masking = False

    def save(self) -> None:
        """Write the changes to config.toml; one line says how it went."""
        changes: dict[str, Any] = dict(self.values)
        changes["model"] = self.model_input.text.strip() or None
        changes["base_url"] = self.url_input.text.strip() or None
        if self._secret.strip():
            changes[_key_field(self.values["provider"])] = self._secret.strip()
        try:
            saved = update_config(changes, self.config_file)
        except (ConfigError, OSError) as exc:
            self.status.text = f"Not saved: {exc}"
            self.status.update_font(font_color=ERROR)
            return
        self._secret = ""
        self._masking = True
        self.key_input.text = ""
        self._masking = False
        self.saved_key = redact(self._key_of(saved))
        self.key_note.text = f"saved: {self.saved_key}" if self.saved_key else "no key saved"
        self.status.text = f"Saved to {saved.config_file}. New games use these settings."
        self.status.update_font(font_color=MUTED)

    def on_key_press(self, symbol: int, modifiers: int) -> bool | None:
        """Esc goes back."""
        if symbol == arcade.key.ESCAPE:
            self.back()
            return True
        return None

    def visible_text(self) -> list[str]:
        """Every string the screen shows (tests check no key leaks into it)."""
        texts: list[str] = []
        for widget in self.ui.walk_widgets():
            text = getattr(widget, "text", None)
            if isinstance(text, str):
                texts.append(text)
        return texts
