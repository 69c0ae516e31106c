"""Mail and scheduler settings (environment variables VEDETTE_*, like the rest)."""

from __future__ import annotations

from typing import Literal

from pydantic import field_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

TlsMode = Literal["starttls", "ssl", "off"]


class NotifySettings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="VEDETTE_", env_file=".env", env_file_encoding="utf-8", extra="ignore"
    )

    # SMTP: no host means mail is logged instead of sent (the `make run` default).
    smtp_host: str | None = None
    smtp_port: int = 587
    smtp_user: str | None = None
    smtp_password: str | None = None
    # "starttls" (default), "ssl" (implicit TLS, usually port 465) or "off";
    # true/false are accepted as starttls/off.
    smtp_tls: TlsMode = "starttls"
    smtp_timeout_seconds: float = 30.0
    mail_from: str = "Vedette <vedette@localhost>"
    # The links in mails: VEDETTE_BASE_URL (shared with the service), else http://HOST:PORT.
    base_url: str | None = None
    host: str = "127.0.0.1"
    port: int = 8000

    # The outbox worker.
    outbox_worker: bool = True
    outbox_poll_seconds: float = 5.0
    outbox_max_attempts: int = 8
    outbox_backoff_seconds: float = 30.0  # first retry; doubles each time
    outbox_backoff_max_seconds: float = 6 * 3600.0
    # A mail claimed for sending by a worker that then died is retried after this long.
    outbox_lease_seconds: float = 300.0

    # The scheduler (deadlines, digests, standing-order sweep).
    scheduler: bool = True
    scheduler_interval_seconds: float = 30.0
    # Mail "your decision" even when that player has the game open in a browser.
    mail_when_online: bool = False
    # A websocket not refreshed for this long no longer counts as "the player is here".
    presence_ttl_seconds: float = 90.0
    default_digest_hours: int = 24

    @field_validator("smtp_tls", mode="before")
    @classmethod
    def _tls_booleans(cls, value: object) -> object:
        if isinstance(value, bool):
            return "starttls" if value else "off"
        if isinstance(value, str):
            lowered = value.strip().lower()
            if lowered in ("1", "true", "yes", "on"):
                return "starttls"
            if lowered in ("0", "false", "no", "none", ""):
                return "off"
            return lowered
        return value

    @field_validator("smtp_host", "smtp_user", "smtp_password", "base_url", mode="before")
    @classmethod
    def _blank_is_none(cls, value: object) -> object:
        if isinstance(value, str) and not value.strip():
            return None
        return value

    @property
    def smtp_enabled(self) -> bool:
        return bool(self.smtp_host)

    @property
    def public_base_url(self) -> str:
        if self.base_url:
            return self.base_url.rstrip("/")
        host = "127.0.0.1" if self.host in ("0.0.0.0", "::") else self.host
        return f"http://{host}:{self.port}"
