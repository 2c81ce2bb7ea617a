"""The bundled model over the whole suite (slow): the hard limits, and a floor for `fit`.

The model runs in its worker process, as in the game; the seed is fixed. The floor sits
with margin below the target (`fit` >= 0.8, quoted from the suite's own run, not asserted).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from game.agent.providers.base import ProviderError
from game.agent.providers.local.model import ensure_default_model
from game.eval.figures import figures
from game.eval.scenarios import load_scenarios
from game.eval.suite import run_suite
from game.world.tiled import load_map
from tests.local.conftest import require_local_extra

ROOT = Path(__file__).resolve().parents[2]
VILLAGE = ROOT / "maps" / "village.tmx"
SEED = 1234
LOCAL_FIT_FLOOR = 0.6


@pytest.mark.slow
@pytest.mark.model
async def test_the_bundled_model_keeps_the_hard_limits_over_the_whole_suite(
    tmp_path: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    from game.village import local_provider

    require_local_extra()
    model = ensure_default_model(tmp_path_factory.mktemp("model-cache"))
    provider = local_provider(model, seed=SEED, probe_cache=tmp_path / "probe.json")
    try:
        failed = await provider.load()
        assert not isinstance(failed, ProviderError), failed
        runs = await run_suite(load_scenarios(), load_map(VILLAGE), tmp_path, provider=provider)
    finally:
        await provider.aclose()
    out = figures(runs, provider=provider.name, model=provider.model)
    print(json.dumps(out))
    kept = {
        "parse_failures": out["parse_failures"] == 0,
        "junk": out["junk"] == 0,
        "fourth_wall": out["fourth_wall"] == 0,
        "calls_per_turn_max": out["calls_per_turn_max"] <= 3,
        "fit": out["fit"] >= LOCAL_FIT_FLOOR,
    }
    missed = [name for name, ok in kept.items() if not ok]
    assert not missed, f"limits missed: {missed}: {out}"
