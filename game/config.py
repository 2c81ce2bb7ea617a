"""Settings: which model to talk to, the keys, and a few player preferences.

Each field is resolved on its own, first match wins:

    explicit (CLI flags)  >  environment  >  .env in the working directory  >  config.toml

Environment variables: OPENAI_API_KEY, ANTHROPIC_API_KEY, NPC_VILLAGE_PROVIDER,
NPC_VILLAGE_MODEL, NPC_VILLAGE_BASE_URL, NPC_VILLAGE_DAY_MINUTES (empty values count as
unset). The config file lives at `config_path()` (platformdirs user config dir, app
"npc-village"; the environment variable NPC_VILLAGE_CONFIG_DIR overrides the directory).
Keys are stored only in that file (mode 0600); `save_settings` never copies a key that
came from the environment into it.

Errors in any source become one `ConfigError` line naming the source and the problem.
config.toml and .env must be regular UTF-8 files of at most 1 MB (a FIFO, a device or a
directory is refused before it is read, so it cannot hang the game), and config.toml may
not nest arrays or tables past what the parser can recurse into; numbers are finite. A
base URL must be an http or https address with a host, a port from 1 to 65535 if any,
and no space, control character or byte that is not UTF-8 (`url_problem`, which also
checks `HF_ENDPOINT`). `allow_insecure_key` (config.toml or `--allow-insecure-key`, never
a `.env` or the environment) lets an API key go in clear text to a host off this machine.
"""

from __future__ import annotations

import io
import os
import tomllib
from collections.abc import Mapping
from pathlib import Path
from typing import Annotated, Any, Literal

import platformdirs
import tomli_w
from dotenv import dotenv_values
from pydantic import (
    AfterValidator,
    BaseModel,
    ConfigDict,
    Field,
    PrivateAttr,
    SecretStr,
    ValidationError,
)

from game import APP_NAME
from game.agent.providers.registry import AUTO, REGISTRY, known_provider
from game.atomic import write_atomic
from game.errors import GameError
from game.files import BadFile, mb, os_reason, read_capped
from game.limits import MAX_CONFIG_BYTES
from game.urls import URL_EXAMPLE, shown_url, url_problem

CONFIG_DIR_ENV = "NPC_VILLAGE_CONFIG_DIR"

# environment variable -> settings field (the API keys' are the provider registry's)
ENV_VARS: dict[str, str] = {
    **{spec.key_env: spec.key_field for spec in REGISTRY.values() if spec.key_env},
    "NPC_VILLAGE_PROVIDER": "provider",
    "NPC_VILLAGE_MODEL": "model",
    "NPC_VILLAGE_BASE_URL": "base_url",
    "NPC_VILLAGE_DAY_MINUTES": "day_minutes",
}
KEY_FIELDS: tuple[str, ...] = tuple(
    dict.fromkeys(spec.key_field for spec in REGISTRY.values() if spec.key_field)
)
FILE_LIMIT = MAX_CONFIG_BYTES  # config.toml and .env: anything larger is a mistake

Source = Literal["cli", "env", ".env", "config.toml"]


class ConfigError(GameError):
    """A configuration problem, told in one line (which file or variable, what is wrong)."""


def _check_base_url(url: str | None) -> str | None:
    problem = url_problem(url) if url is not None else None
    if problem is not None:
        raise ValueError(f"{shown_url(url or '')!r} {problem}: give one like {URL_EXAMPLE}")
    return url


class Settings(BaseModel):
    """Everything the game reads from flags, environment, .env and config.toml."""

    model_config = ConfigDict(extra="forbid", validate_assignment=True, allow_inf_nan=False)

    provider: Annotated[str, AfterValidator(known_provider)] = AUTO  # a registry name, or auto
    model: str | None = None
    base_url: Annotated[str | None, AfterValidator(_check_base_url)] = None
    allow_insecure_key: bool = False  # an API key may go over plain http off this machine
    models_by_trigger: dict[str, str] = Field(default_factory=dict)
    openai_api_key: SecretStr | None = None
    anthropic_api_key: SecretStr | None = None
    max_concurrent: int = Field(default=4, ge=1, le=64)
    turn_timeout_s: float = Field(default=60.0, gt=0)
    idle_chatter: bool = True
    text_speed: float = Field(default=1.0, gt=0)  # bubble reveal speed; 0 < x, >= 8 instant
    text_scale: float = Field(default=1.0, ge=0.6, le=2.0)  # size of bubble and panel text
    volume: float = Field(default=0.0, ge=0, le=1)
    player_name: str | None = None
    autosave_minutes: float = Field(default=5.0, ge=0)
    day_minutes: float = Field(default=24.0, ge=1, le=10080)  # real minutes per game day

    _sources: dict[str, Source] = PrivateAttr(default_factory=dict)
    _config_file: Path | None = PrivateAttr(default=None)

    @property
    def config_file(self) -> Path:
        """The config.toml these settings were loaded from (else the default path)."""
        return self._config_file or config_path()

    def __eq__(self, other: object) -> bool:
        # Equal values are equal settings, wherever they were loaded from.
        if isinstance(other, Settings):
            return self.model_dump() == other.model_dump()
        return NotImplemented

    def source_of(self, field: str) -> Source | None:
        """Where a field's value came from, or None for the built-in default."""
        return self._sources.get(field)

    def api_key(self, field: str) -> str | None:
        """The API key in `field` (one of `KEY_FIELDS`; "" for none), None when unset."""
        value = getattr(self, field) if field in KEY_FIELDS else None
        return value.get_secret_value() if isinstance(value, SecretStr) else None


def config_path(env: Mapping[str, str] | None = None) -> Path:
    """The config.toml path (NPC_VILLAGE_CONFIG_DIR overrides the directory)."""
    env = os.environ if env is None else env
    override = env.get(CONFIG_DIR_ENV)
    if override:
        return Path(override) / "config.toml"
    return platformdirs.user_config_path(APP_NAME, appauthor=False) / "config.toml"


def redact(secret: str | SecretStr | None) -> str:
    """A recognisable but harmless form of a key: "sk-…1234"; never the whole key."""
    if isinstance(secret, SecretStr):
        secret = secret.get_secret_value()
    if not secret:
        return "(not set)"
    if len(secret) >= 16:
        return f"{secret[:3]}…{secret[-4:]}"
    if len(secret) >= 8:
        return f"…{secret[-2:]}"
    return "…"


# --- reading ---------------------------------------------------------------------------


def parse_dotenv(text: str) -> dict[str, str]:
    """A .env file's variables (python-dotenv's reading: `export`, quotes, # comments),
    without interpolation: a .env never pulls other variables into a setting."""
    values = dotenv_values(stream=io.StringIO(text), interpolate=False)
    return {key: value for key, value in values.items() if value is not None}


def _from_env(env: Mapping[str, str]) -> dict[str, Any]:
    return {fld: env[var] for var, fld in ENV_VARS.items() if env.get(var)}


def _read_text(path: Path) -> str | None:
    """The text of config.toml or .env (None when there is none): a regular UTF-8 file of
    at most FILE_LIMIT bytes, read without blocking, else one ConfigError line."""
    try:
        data = read_capped(path, FILE_LIMIT)
    except FileNotFoundError:
        return None
    except BadFile as exc:
        raise ConfigError(
            f"{exc}: the game reads a regular text file of up to {mb(FILE_LIMIT)} there; "
            "replace it with one or remove it"
        ) from None
    except OSError as exc:
        raise ConfigError(f"{path}: cannot read: {os_reason(exc)}") from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ConfigError(
            f"{path}: cannot read: byte {exc.start} is not UTF-8; save the file as UTF-8"
        ) from None


def _read_toml(path: Path) -> dict[str, Any]:
    text = _read_text(path)
    try:
        return tomllib.loads(text) if text is not None else {}
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: not valid TOML: {exc}") from None
    except RecursionError:  # tomllib recurses into each nested array and inline table
        raise ConfigError(
            f"{path}: not valid TOML: arrays or tables nested too deep to read; the settings "
            "are flat: fix or remove the file"
        ) from None


def _describe(exc: ValidationError, labels: Mapping[str, str]) -> str:
    errors = exc.errors()
    first = errors[0]
    loc = ".".join(str(p) for p in first["loc"]) or "(root)"
    top = str(first["loc"][0]) if first["loc"] else ""
    msg = first["msg"]
    if first["type"] == "extra_forbidden":
        msg = "unknown setting"
    elif first["type"] == "value_error":
        msg = str(first.get("ctx", {}).get("error", msg))
    where = labels.get(top, "settings")
    more = f" (and {len(errors) - 1} more)" if len(errors) > 1 else ""
    return f"{where}: {loc}: {msg}{more}"


def load_settings(
    explicit: dict[str, Any] | None = None,
    *,
    env: Mapping[str, str] | None = None,
    cwd: Path | None = None,
    config_file: Path | None = None,
) -> Settings:
    """Resolve every field: explicit > environment > .env in `cwd` > config.toml."""
    env = os.environ if env is None else env
    cwd = Path.cwd() if cwd is None else cwd
    path = config_path(env) if config_file is None else config_file

    layers: list[tuple[Source, str, dict[str, Any]]] = []
    toml_values = _read_toml(path)
    layers.append(("config.toml", str(path), toml_values))
    dotenv_path = cwd / ".env"
    dotenv_text = _read_text(dotenv_path) or ""
    layers.append((".env", str(dotenv_path), _from_env(parse_dotenv(dotenv_text))))
    layers.append(("env", "environment", _from_env(env)))
    explicit_values = {k: v for k, v in (explicit or {}).items() if v is not None}
    layers.append(("cli", "command line", explicit_values))

    merged: dict[str, Any] = {}
    sources: dict[str, Source] = {}
    labels: dict[str, str] = {}
    var_of = {fld: var for var, fld in ENV_VARS.items()}
    for source, label, values in layers:
        for key, value in values.items():
            merged[key] = value
            sources[key] = source
            if source in ("env", ".env"):
                labels[key] = f"{label} ({var_of.get(key, key)})"
            else:
                labels[key] = label
    try:
        settings = Settings.model_validate(merged)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, labels)) from None
    settings._sources = sources
    settings._config_file = path
    return settings


# --- writing ---------------------------------------------------------------------------


def dumps_toml(values: Mapping[str, Any]) -> str:
    """config.toml's text: a header line, flat keys, then a table per dict (tomli-w)."""
    plain = {k: _plain(v) for k, v in values.items() if v is not None}
    header = "# npc-village settings; API keys stored here are readable only by you.\n\n"
    return header + tomli_w.dumps(plain)


def _plain(value: Any) -> Any:
    if isinstance(value, SecretStr):
        return value.get_secret_value()
    if isinstance(value, Mapping):
        return {str(k): _plain(v) for k, v in value.items() if v is not None}
    return value


def save_settings(settings: Settings, path: Path | None = None) -> None:
    """Write config.toml atomically; keys that came from the environment are not copied."""
    path = config_path() if path is None else path
    try:
        existing = _read_toml(path)
    except ConfigError:
        existing = {}
    values: dict[str, Any] = {}
    for name in Settings.model_fields:
        value = getattr(settings, name)
        if name in KEY_FIELDS and settings.source_of(name) in ("env", ".env"):
            value = existing.get(name)  # keep what the file had, never the env's key
        if name == "models_by_trigger" and not value:
            continue
        values[name] = value
    write_atomic(path, dumps_toml(values).encode("utf-8"), mode=0o600)  # it may hold keys


def update_config(changes: Mapping[str, Any], path: Path | None = None) -> Settings:
    """Change some fields of config.toml only (e.g. from the settings menu); returns it."""
    path = config_path() if path is None else path
    values = _read_toml(path)
    for key, value in changes.items():
        if value is None:
            values.pop(key, None)
        else:
            values[key] = value
    try:
        settings = Settings.model_validate(values)
    except ValidationError as exc:
        raise ConfigError(_describe(exc, {k: str(path) for k in values})) from None
    save_settings(settings, path)
    settings._sources = {k: "config.toml" for k in values}
    settings._config_file = path
    return settings
