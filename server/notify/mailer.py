"""Mail transports: real SMTP (stdlib smtplib in a worker thread) or the log (no SMTP host set)."""

from __future__ import annotations

import asyncio
import email.policy
import logging
import smtplib
import ssl
from collections import deque
from dataclasses import dataclass, field
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid, parseaddr
from functools import lru_cache
from typing import Protocol

from ..models import utcnow
from .config import NotifySettings
from .models import OutboxMail

log = logging.getLogger(__name__)


class PermanentMailError(Exception):
    """The SMTP server refused the mail for good (5xx): retrying will not help."""


class TransientMailError(Exception):
    """Could not hand the mail over now (connection, 4xx, timeout): retry later."""


@dataclass
class Mail:
    to: str
    subject: str
    body: str
    message_id: str
    headers: dict[str, str] = field(default_factory=dict)


def new_message_id(settings: NotifySettings) -> str:
    return make_msgid(idstring="vedette", domain=_message_id_domain(settings.mail_from))


@lru_cache(maxsize=8)
def _message_id_domain(mail_from: str) -> str:
    # Parsed once per sender: `parseaddr` was a fifth of planning a join's mails (issue 16's profile, session 15).
    return parseaddr(mail_from)[1].rpartition("@")[2] or "vedette.localhost"


def build_message(settings: NotifySettings, mail: Mail) -> EmailMessage:
    # Long lines allowed (RFC 5322's 998) so the List-Unsubscribe URL is not encoded-word folded.
    msg = EmailMessage(policy=email.policy.SMTP.clone(max_line_length=998))
    msg["From"] = settings.mail_from
    msg["To"] = mail.to
    msg["Subject"] = mail.subject
    msg["Message-ID"] = mail.message_id
    msg["Date"] = format_datetime(utcnow())
    msg["Auto-Submitted"] = "auto-generated"
    for name, value in mail.headers.items():
        msg[name] = value
    msg.set_content(mail.body)
    return msg


def mail_from_row(row: OutboxMail, headers: dict[str, str]) -> Mail:
    return Mail(row.to_addr, row.subject, row.body, row.message_id, headers)


class Mailer(Protocol):
    name: str

    async def send(self, mail: Mail) -> None: ...


class LogMailer:
    """No SMTP configured: mails are written to the log (and kept for tests in `sent`)."""

    name = "log"

    def __init__(self, settings: NotifySettings) -> None:
        self.settings = settings
        # The latest mails, for tests and debugging; bounded, so a long-running `make run` never grows.
        self.sent: deque[Mail] = deque(maxlen=1000)
        if not logging.getLogger().handlers and not log.handlers:
            # `vedette serve` configures only uvicorn's loggers: show the mails on stderr anyway.
            handler = logging.StreamHandler()
            handler.setFormatter(logging.Formatter("%(levelname)s:     %(message)s"))
            log.addHandler(handler)
            log.setLevel(logging.INFO)

    async def send(self, mail: Mail) -> None:
        self.sent.append(mail)
        log.info("mail not sent (VEDETTE_SMTP_HOST unset) to %s: %s\n%s", mail.to, mail.subject, mail.body)


class SmtpMailer:
    """One SMTP conversation per mail, in a thread so the event loop never blocks."""

    name = "smtp"

    def __init__(self, settings: NotifySettings) -> None:
        self.settings = settings

    async def send(self, mail: Mail) -> None:
        message = build_message(self.settings, mail)
        await asyncio.to_thread(self._send_blocking, message)

    def _send_blocking(self, message: EmailMessage) -> None:
        s = self.settings
        assert s.smtp_host
        try:
            client: smtplib.SMTP
            if s.smtp_tls == "ssl":
                client = smtplib.SMTP_SSL(
                    s.smtp_host, s.smtp_port, timeout=s.smtp_timeout_seconds,
                    context=ssl.create_default_context(),
                )
            else:
                client = smtplib.SMTP(s.smtp_host, s.smtp_port, timeout=s.smtp_timeout_seconds)
            with client:
                client.ehlo()
                if s.smtp_tls == "starttls":
                    client.starttls(context=ssl.create_default_context())
                    client.ehlo()
                if s.smtp_user:
                    client.login(s.smtp_user, s.smtp_password or "")
                refused = client.send_message(message)
                if refused:
                    raise PermanentMailError(f"recipients refused: {refused}")
        except smtplib.SMTPRecipientsRefused as exc:
            codes = [code for code, _ in exc.recipients.values()]
            if all(code >= 500 for code in codes):
                raise PermanentMailError(f"recipient refused: {exc.recipients}") from exc
            raise TransientMailError(f"recipient deferred: {exc.recipients}") from exc
        except smtplib.SMTPAuthenticationError as exc:
            # Misconfiguration: keep retrying (with backoff) until an operator fixes it.
            raise TransientMailError(f"SMTP authentication failed: {exc.smtp_code}") from exc
        except smtplib.SMTPResponseException as exc:
            if exc.smtp_code >= 500:
                raise PermanentMailError(f"SMTP {exc.smtp_code}: {exc.smtp_error!r}") from exc
            raise TransientMailError(f"SMTP {exc.smtp_code}: {exc.smtp_error!r}") from exc
        except (OSError, smtplib.SMTPException) as exc:
            raise TransientMailError(f"{type(exc).__name__}: {exc}") from exc


def make_mailer(settings: NotifySettings) -> Mailer:
    return SmtpMailer(settings) if settings.smtp_enabled else LogMailer(settings)
