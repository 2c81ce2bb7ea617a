"""The look every screen shares: panel and text colours, font sizes, and the one button."""

from __future__ import annotations

from collections.abc import Callable

import arcade
import arcade.gui

__all__ = [
    "ACCENT",
    "ASK_PANEL",
    "ERROR",
    "HEADING",
    "HEADING_SIZE",
    "INK",
    "MONOSPACE",
    "MUTED",
    "PANEL",
    "STATUS_SIZE",
    "bottom_panel",
    "button",
    "click",
]

PANEL = arcade.types.Color(24, 22, 34, 235)  # every dark panel: menus, talk box, HUD, help
ASK_PANEL = arcade.types.Color(36, 30, 52, 235)  # an NPC's question, above the talk box
HEADING = arcade.types.Color(255, 248, 220)  # panel titles
INK = arcade.types.Color(240, 238, 228)  # text on a panel
MUTED = arcade.types.Color(200, 196, 180)  # secondary text: labels, hints, status lines
ERROR = arcade.types.Color(255, 170, 150)  # what went wrong, in one line
ACCENT = arcade.types.Color(255, 214, 120)  # who is asking, what is inspected, notices

HEADING_SIZE = 22
STATUS_SIZE = 11  # the one-line status under a menu
MONOSPACE = ("DejaVu Sans Mono", "Courier New", "monospace")


def button(
    text: str, action: Callable[[], object], *, width: int = 240, height: int = 40
) -> arcade.gui.UIFlatButton:
    """A flat button that runs `action` when clicked."""
    flat = arcade.gui.UIFlatButton(text=text, width=width, height=height)

    @flat.event("on_click")
    def _clicked(event: arcade.gui.UIOnClickEvent) -> None:
        action()

    return flat


def bottom_panel(
    ui: arcade.gui.UIManager,
    widgets: tuple[arcade.gui.UIWidget, ...],
    *,
    space_between: int,
    align_y: float,
    color: arcade.types.Color = PANEL,
) -> arcade.gui.UIAnchorLayout:
    """A panel of `widgets`, one above the other, centred at the bottom of the screen and
    hidden until shown (`.visible`); added to `ui`."""
    box = arcade.gui.UIBoxLayout(vertical=True, space_between=space_between, align="left")
    for widget in widgets:
        box.add(widget)
    anchor = arcade.gui.UIAnchorLayout()
    anchor.add(
        box.with_padding(all=12).with_background(color=color),
        anchor_x="center_x",
        anchor_y="bottom",
        align_y=align_y,
    )
    anchor.visible = False
    ui.add(anchor)
    return anchor


def click(target: arcade.gui.UIFlatButton) -> None:
    """Press a button as the mouse would (tests drive the screens through it)."""
    target.dispatch_event(
        "on_click", arcade.gui.UIOnClickEvent(source=target, x=0, y=0, button=1, modifiers=0)
    )
