"""The only package that imports arcade: window, views, sprites, bubbles."""

from __future__ import annotations

import importlib
import os

if os.environ.get("ARCADE_HEADLESS"):
    # arcade 3.3's gui imports its controller support, which arcade skips in headless
    # mode and which needs pyglet's X11 window module loaded first; load them by hand,
    # in this order, so the talk box (arcade.gui) works offscreen too. Only modules
    # load: no display is opened.
    _arcade = importlib.import_module("arcade")
    importlib.import_module("pyglet.window.xlib")
    if not hasattr(_arcade, "ControllerManager"):
        controller = importlib.import_module("arcade.controller")
        vars(_arcade)["ControllerManager"] = controller.ControllerManager
