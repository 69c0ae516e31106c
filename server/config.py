"""The one settings object: environment variables (and an optional .env file)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path
from typing import Literal
from urllib.parse import urlsplit

from pydantic import AliasChoices, Field, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

DEFAULT_SECRET_KEY = "vedette-development-secret-change-me"

# The repository root when running from a checkout (editable install); an
# installed wheel falls back to the working directory (the Docker image's /app).
_PACKAGE_PARENT = Path(__file__).resolve().parent.parent


def _find_dir(name: str) -> Path:
    for base in (_PACKAGE_PARENT, Path.cwd()):
        candidate = base / name
        if candidate.exists():
            return candidate
    return Path.cwd() / name


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="VEDETTE_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    env: str = "development"
    database_url: str = Field(
        default="sqlite+aiosqlite:///./vedette.db",
        validation_alias=AliasChoices("DATABASE_URL", "VEDETTE_DATABASE_URL"),
    )
    secret_key: str = DEFAULT_SECRET_KEY
    base_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000
    workers: int = 1
    # This process's name behind a proxy (docs/deployment.md): when set, every HTTP answer and websocket
    # handshake carries it as `X-Vedette-Process` and /healthz reports it, so an operator (and
    # tests/server/test_proxy.py) can see which process served a game. Unset: no header.
    process_name: str | None = Field(default=None, max_length=64, pattern=r"^[A-Za-z0-9._:-]*$")

    max_body_bytes: int = 64 * 1024
    max_ws_frame_bytes: int = 16 * 1024
    login_attempts: int = 10
    login_window_seconds: int = 300
    session_days: int = 30
    session_cookie: str = "vedette_session"
    # X-Forwarded-For/-Proto are believed only when this says so (behind your own reverse proxy),
    # and then only from these addresses (uvicorn's forwarded_allow_ips); off, a client cannot
    # pick the address the login limit counts against.
    trust_forwarded_headers: bool = False
    forwarded_allow_ips: str = "127.0.0.1"
    # Quotas per account: games waiting for their second player, and games created per hour (429).
    max_waiting_games: int = Field(default=10, ge=1)
    games_per_hour: int = Field(default=30, ge=1)

    scenarios_dir: Path = Field(default_factory=lambda: _find_dir("scenarios"))
    web_dir: Path = Field(default_factory=lambda: _find_dir("web"))
    migrations_dir: Path = Field(default_factory=lambda: _find_dir("migrations"))

    # Postgres NOTIFY channel; tests give each run its own so parallel runs never cross.
    notify_channel: str = "vedette_games"
    # Extra search_path schema for Postgres (tests isolate themselves in a fresh schema).
    db_schema: str | None = None
    db_pool_size: int = 10
    # How long a request waits for a pooled database connection before it is answered 503 with Retry-After
    # (issue 38): a dry pool under a burst must refuse fast, not hold every request for SQLAlchemy's 30 s.
    db_pool_timeout: float = Field(default=2.0, gt=0, le=30)
    # How long a command waits behind its game's other commands in this process before a 503 (issue 38).
    command_wait_seconds: float = Field(default=5.0, gt=0, le=60)
    # The command path stores a game's whole state every this many commands (and at its end); the
    # log rows in between are replayed when a process loads the game (migration 0005).
    snapshot_every: int = Field(default=32, ge=1, le=1000)
    # Postgres: whether a command's write waits until its WAL is on disk (`on`, the default) or returns
    # once Postgres holds it (`off`: about 0.4 ms less per command here). Either way an acknowledged
    # command survives this server's process being killed; with `off` a crash of Postgres itself or of
    # its machine may lose the last fraction of a second of commands. The command path's pool only
    # (commands and presence rows); accounts, lobby and mails always commit durably. docs/api.md.
    pg_command_synchronous_commit: Literal["on", "off"] = "on"
    # One full garbage collection every this many seconds instead of CPython's automatic ones,
    # which stalled the event loop for 60-300 ms under load (server/gctune.py); 0 keeps the default.
    gc_full_collect_seconds: float = 300.0
    # While the pacer runs: net allocations between two young collections (CPython: 700), and young
    # collections between two of the middle generation (CPython: 10); 0 keeps the interpreter's. Lower means
    # shorter, more frequent passes: at CPython's values a serving process's young pass took 3-6 ms and its
    # middle pass 12-15 ms under load (server/gctune.py; docs/benchmarks.md, session 15).
    gc_young_threshold: int = Field(default=100, ge=0, le=100_000)
    gc_middle_threshold: int = Field(default=3, ge=0, le=1000)
    # The computer opponent (issue 15): its time per decision, and the worker processes it thinks in.
    bot_budget_seconds: float = Field(default=1.0, gt=0, le=60)
    bot_workers: int = Field(default=1, ge=1, le=16)
    # Tests only (R11): every new game gets this dice seed, so a test can pick a seed whose dice it knows.
    # Dice still come from the seed, so records verify; refused outside VEDETTE_ENV=test.
    test_game_seed: str | None = None

    @model_validator(mode="after")
    def _refuse_fixed_seed_outside_tests(self) -> Settings:
        if self.test_game_seed is not None and self.env != "test":
            raise ValueError("VEDETTE_TEST_GAME_SEED fixes every game's dice and is allowed only when VEDETTE_ENV=test")
        return self

    @model_validator(mode="after")
    def _refuse_default_secret_outside_development(self) -> Settings:
        if self.env != "development" and self.secret_key == DEFAULT_SECRET_KEY:
            raise ValueError(
                "VEDETTE_SECRET_KEY is still the development default; set it to a long random "
                "value (e.g. `python -c 'import secrets; print(secrets.token_hex(32))'`) "
                "when VEDETTE_ENV is not 'development'"
            )
        return self

    @property
    def is_sqlite(self) -> bool:
        return self.database_url.startswith("sqlite")

    @property
    def allowed_origins(self) -> set[str]:
        """Origins (scheme://host[:port]) a browser websocket may come from besides the same host."""
        if not self.base_url:
            return set()
        parts = urlsplit(self.base_url)
        return {f"{parts.scheme}://{parts.netloc}".lower()}

    @property
    def secure_cookies(self) -> bool:
        return bool(self.base_url and self.base_url.startswith("https://"))


@lru_cache
def get_settings() -> Settings:
    return Settings()
