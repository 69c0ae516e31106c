"""`vedette serve`, `vedette migrate`, `vedette create-admin` (dispatched by server.cli)."""

from __future__ import annotations

import argparse
import asyncio
import getpass
import os
import sys
from typing import Any


def add_parsers(subparsers: Any) -> None:
    serve = subparsers.add_parser("serve", help="run the web server (uvicorn)")
    serve.add_argument("--host", help="bind address (default VEDETTE_HOST or 127.0.0.1)")
    serve.add_argument("--port", type=int, help="port (default VEDETTE_PORT or 8000)")
    serve.add_argument("--workers", type=int, help="worker processes (Postgres for more than 1)")
    serve.add_argument("--log-level", default="info")
    serve.add_argument("--access-log", action=argparse.BooleanOptionalAction, default=True,
                       help="log every request (default on)")
    serve.set_defaults(handler=serve_command)

    migrate = subparsers.add_parser("migrate", help="bring the database schema up to date")
    migrate.set_defaults(handler=migrate_command)

    admin = subparsers.add_parser("create-admin", help="create an administrator (or promote a user)")
    admin.add_argument("username")
    admin.add_argument("--password", help="password (else VEDETTE_ADMIN_PASSWORD, else a prompt)")
    admin.add_argument("--email", help="email address (default USERNAME@localhost)")
    admin.set_defaults(handler=create_admin_command)

    from .notify.cli import add_parsers as add_notify_parsers

    add_notify_parsers(subparsers)


def _settings() -> Any:
    from pydantic import ValidationError

    from .config import get_settings

    try:
        return get_settings()
    except ValidationError as exc:
        for err in exc.errors():
            print(f"vedette: configuration error: {err['msg']}", file=sys.stderr)
        return None


def serve_command(args: argparse.Namespace) -> int:
    import uvicorn

    settings = _settings()
    if settings is None:
        return 2
    workers = args.workers or settings.workers
    if workers > 1 and settings.is_sqlite:
        print("vedette: several workers need Postgres (set DATABASE_URL); serving with 1", file=sys.stderr)
        workers = 1
    host = args.host or settings.host
    port = args.port or settings.port
    print(f"Vedette on http://{host}:{port} ({'SQLite' if settings.is_sqlite else 'Postgres'})", file=sys.stderr)
    uvicorn.run(
        "server.main:app",
        host=host,
        port=port,
        workers=workers,
        log_level=args.log_level,
        # The server reads no more of a frame than the limit (issue 38): a longer one closes the socket with 1009
        # (message too big) and the page reconnects. The app's own check (`frame_too_large`, connection open) answers
        # behind servers that read further (tests' TestClient).
        ws_max_size=settings.max_ws_frame_bytes,
        # A patch is about a kilobyte: compressing every frame cost more server time than it saves
        # on the wire (issue 16's profile: permessage-deflate on every ~1 KB frame).
        ws_per_message_deflate=False,
        loop="uvloop",
        http="httptools",
        # Access lines cost a formatted log record per request; errors are still logged.
        access_log=getattr(args, "access_log", True),
        # X-Forwarded-* only when configured (VEDETTE_TRUST_FORWARDED_HEADERS), from the listed proxies.
        proxy_headers=settings.trust_forwarded_headers,
        forwarded_allow_ips=settings.forwarded_allow_ips,
    )
    return 0


def migrate_command(args: argparse.Namespace) -> int:
    from .migrate import upgrade_head

    settings = _settings()
    if settings is None:
        return 2
    try:
        upgrade_head(settings)
    except Exception as exc:  # noqa: BLE001 a command line tool reports any failure in one line, not a traceback
        print(f"vedette migrate: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print("database schema is up to date", file=sys.stderr)
    return 0


def create_admin_command(args: argparse.Namespace) -> int:
    settings = _settings()
    if settings is None:
        return 2
    password = args.password or os.environ.get("VEDETTE_ADMIN_PASSWORD")
    if not password:
        if not sys.stdin.isatty():
            print("vedette create-admin: give --password or VEDETTE_ADMIN_PASSWORD", file=sys.stderr)
            return 2
        password = getpass.getpass(f"Password for {args.username}: ")
        if password != getpass.getpass("Again: "):
            print("vedette create-admin: the passwords differ", file=sys.stderr)
            return 2
    if len(password) < 8:
        print("vedette create-admin: the password needs at least 8 characters", file=sys.stderr)
        return 2
    email = args.email or f"{args.username}@localhost"
    try:
        created = asyncio.run(_create_admin(settings, args.username, password, email))
    except Exception as exc:  # noqa: BLE001 as above
        print(f"vedette create-admin: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 1
    print(f"{'created' if created else 'promoted'} admin {args.username.lower()}", file=sys.stderr)
    return 0


async def _create_admin(settings: Any, username: str, password: str, email: str) -> bool:
    """Create the admin, or make an existing user admin with the new password. True if created."""
    import re

    from sqlalchemy import select

    from .db import begin_write, create_engine, create_sessionmaker
    from .models import User
    from .schemas import USERNAME_PATTERN
    from .services.accounts import create_user, hash_password

    if not re.match(USERNAME_PATTERN, username):
        raise ValueError("usernames are 3-32 letters, digits, _ . -")
    engine = create_engine(settings)
    try:
        async with create_sessionmaker(engine)() as session:
            # A write transaction from the start: a read upgraded to a write fails at once on
            # SQLite when the running server commits in between (its mail worker does so often).
            await begin_write(session)
            user = await session.scalar(select(User).where(User.username == username.lower()))
            if user is None:
                await create_user(session, username, password, email, is_admin=True)
                await session.commit()
                return True
            user.is_admin = True
            user.password_hash = hash_password(password)
            await session.commit()
            return False
    finally:
        await engine.dispose()
