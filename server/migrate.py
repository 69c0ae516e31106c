"""Run Alembic migrations programmatically (`vedette migrate`, tests, the app's dev bootstrap)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config

from .config import Settings


def alembic_config(settings: Settings) -> Config:
    migrations = Path(settings.migrations_dir)
    ini = migrations.parent / "alembic.ini"
    cfg = Config(str(ini)) if ini.exists() else Config()
    cfg.set_main_option("script_location", str(migrations))
    cfg.attributes["settings"] = settings
    return cfg


def upgrade_head(settings: Settings) -> None:
    """Bring the database at settings.database_url to the newest schema (blocking)."""
    if settings.is_sqlite:
        _ensure_sqlite_parent(settings.database_url)
    command.upgrade(alembic_config(settings), "head")


def _ensure_sqlite_parent(url: str) -> None:
    from sqlalchemy.engine import make_url

    database = make_url(url).database
    if database and database != ":memory:":
        Path(database).expanduser().resolve().parent.mkdir(parents=True, exist_ok=True)
