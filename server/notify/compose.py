"""The words of every mail (plain text), and the turn digest.

The digest is built ONLY from log events passed through the rules core's
`filter_events(events, viewer)`: exactly what that player's own game log
shows, never the command objects (which may name hidden units) nor the seed.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any

STANDING_ORDER_EVENT = "standing_order"
MAX_DIGEST_LINES = 150


@dataclass(frozen=True)
class GameInfo:
    id: str
    title: str
    url: str
    side_names: dict[str, str]
    seats: dict[str, str | None]  # side -> username

    def name(self, side: str | None) -> str:
        if side is None:
            return "nobody"
        return self.side_names.get(side, side)

    def player(self, side: str | None) -> str:
        if side is None:
            return "nobody"
        return self.seats.get(side) or self.name(side)


@dataclass(frozen=True)
class Composed:
    subject: str
    body: str


def _fmt_time(when: datetime | None) -> str:
    return when.strftime("%Y-%m-%d %H:%M UTC") if when else "-"


def _hours(seconds: float) -> str:
    hours = seconds / 3600
    return f"{hours:.0f} hours" if hours >= 10 else f"{hours:.1f} hours"


def is_standing_order_row(events: Sequence[dict[str, Any]]) -> bool:
    return bool(events) and events[0].get("type") == STANDING_ORDER_EVENT


def digest_lines(
    rows: Iterable[Any], viewer: str, filter_events: Any, side_names: dict[str, str]
) -> list[str]:
    """Plain lines of what happened in `rows` (GameCommand-like: seq, side, events), as `viewer` sees it.
    `filter_events` is the rules core's (server.rules.filter_events): the one visibility rule every event
    passes, dice included (docs/engine-contract.md "Hidden information"); nothing else of a row is read."""
    lines: list[str] = []
    for row in rows:
        visible = filter_events(list(row.events), viewer)
        texts = [str(e.get("text", "")).strip() for e in visible if str(e.get("text", "")).strip()]
        if not texts:
            continue
        who = "Referee" if row.side == "referee" else side_names.get(row.side, row.side)
        lines.append(f"[{row.seq}] {who}:")
        lines.extend(f"    {t}" for t in texts)
    if len(lines) > MAX_DIGEST_LINES:
        hidden = len(lines) - MAX_DIGEST_LINES
        lines = lines[:MAX_DIGEST_LINES] + [f"    ... and {hidden} more lines: see the game's log."]
    return lines


def footer(unsubscribe_url: str, settings_url: str) -> str:
    return (
        "\n-- \nVedette referee server. You get this mail because you play this game.\n"
        f"Mail settings (log in): {settings_url}\n"
        f"Stop all Vedette mail (no login needed): {unsubscribe_url}\n"
    )


def message_lines(game: GameInfo, messages: Sequence[Any]) -> list[str]:
    """The seats' messages (services/messages.py `MailedMessage`) as a mail quotes them: each on its own line
    behind its author, so a message cannot pass for the mail's own words (a message holds no line break)."""
    return [f"    [{m.version}] {game.name(m.side)} ({m.author}): {m.text}" for m in messages]


def your_decision(
    game: GameInfo, side: str, prompt_text: str, digest: list[str], deadline_at: datetime | None,
    messages: list[str] | None = None,
) -> Composed:
    subject = f"[Vedette] Your decision: {game.title}"
    parts = [
        f"{game.player(side)}, the decision in \"{game.title}\" is yours ({game.name(side)}).",
        "",
        f"Now: {prompt_text}" if prompt_text else "",
        "",
        f"Open the game: {game.url}",
    ]
    if deadline_at is not None:
        parts += ["", f"Decide before {_fmt_time(deadline_at)}, or your opponent may claim the game."]
    if messages:
        # The link to answer: the game page's messages panel.
        parts += ["", f"Messages since your last decision (answer in the game: {game.url}#messages):"]
        parts += messages
    parts += ["", "Since your last decision:" if digest else "Nothing to report since your last decision."]
    parts += digest
    return Composed(subject, "\n".join(parts).replace("\n\n\n", "\n\n") + "\n")


def game_started(game: GameInfo, side: str, awaiting: str | None, deadline_hours: int | None) -> Composed:
    opponent = next((s for s in game.side_names if s != side), None)
    lines = [
        (f"\"{game.title}\" has begun. You command the {game.name(side)}; "
         f"{game.player(opponent)} commands the {game.name(opponent)}."),
        "",
        "The first decision is yours." if awaiting == side else f"The first decision is {game.player(awaiting)}'s.",
        "",
        f"Open the game: {game.url}",
    ]
    if deadline_hours:
        lines += ["", f"Each decision must be taken within {deadline_hours} hours."]
    return Composed(f"[Vedette] {game.title} has begun", "\n".join(lines) + "\n")


def opponent_joined(game: GameInfo, side: str, awaiting: str | None, deadline_hours: int | None) -> Composed:
    opponent = next((s for s in game.side_names if s != side), None)
    started = game_started(game, side, awaiting, deadline_hours)
    body = f"{game.player(opponent)} joined your game and takes the {game.name(opponent)}.\n\n" + started.body
    return Composed(f"[Vedette] {game.player(opponent)} joined {game.title}", body)


def _result_text(game: GameInfo, result: dict[str, Any] | None) -> str:
    if not result:
        return "The game is over."
    winner = result.get("winner")
    head = f"{game.name(winner)} wins." if winner else "The game is drawn."
    reason = result.get("reason")
    points = result.get("points") or {}
    pts = ", ".join(f"{game.name(s)} {p}" for s, p in points.items())
    return " ".join(x for x in (head, f"({reason})" if reason else "", f"Points: {pts}." if pts else "") if x)


def game_over(game: GameInfo, side: str, result: dict[str, Any] | None, digest: list[str]) -> Composed:
    winner = (result or {}).get("winner")
    verdict = "You won" if winner == side else ("Drawn" if winner is None else "You lost")
    lines = [f"\"{game.title}\" is over. {verdict}.", "", _result_text(game, result), "",
             f"The game and its record: {game.url}"]
    if digest:
        lines += ["", "The last moves:"] + digest
    return Composed(f"[Vedette] {game.title} is over: {verdict.lower()}", "\n".join(lines) + "\n")


def opponent_resigned(game: GameInfo, side: str, result: dict[str, Any] | None) -> Composed:
    opponent = next((s for s in game.side_names if s != side), None)
    lines = [f"{game.player(opponent)} resigned \"{game.title}\". You won.", "",
             _result_text(game, result), "", f"The game and its record: {game.url}"]
    return Composed(f"[Vedette] {game.player(opponent)} resigned {game.title}", "\n".join(lines) + "\n")


def deadline_reminder(game: GameInfo, side: str, deadline_at: datetime, left_seconds: float) -> Composed:
    lines = [f"{game.player(side)}, your decision in \"{game.title}\" is still open.", "",
             (f"About {_hours(left_seconds)} are left: decide before {_fmt_time(deadline_at)}, or your "
              "opponent may claim the game (or grant you more time)."), "",
             f"Open the game: {game.url}", "",
             "Going away? Ask for a pause in the game (your opponent must accept)."]
    return Composed(f"[Vedette] Reminder: {_hours(left_seconds)} left in {game.title}", "\n".join(lines) + "\n")


def overdue_late(game: GameInfo, side: str, deadline_at: datetime) -> Composed:
    lines = [f"{game.player(side)}, your decision in \"{game.title}\" was due at {_fmt_time(deadline_at)}.", "",
             "Your opponent may now claim the game or grant you more time. Decide now to keep playing:",
             game.url]
    return Composed(f"[Vedette] Your decision in {game.title} is overdue", "\n".join(lines) + "\n")


def overdue_opponent(game: GameInfo, side: str, late: str, deadline_at: datetime) -> Composed:
    lines = [(f"{game.player(late)} has not decided in \"{game.title}\"; the decision was due at "
              f"{_fmt_time(deadline_at)}."), "",
             "You may claim the win or grant more time, in the game:", game.url]
    return Composed(f"[Vedette] {game.player(late)} is overdue in {game.title}", "\n".join(lines) + "\n")


def pause_requested(game: GameInfo, side: str, by: str, days: int) -> Composed:
    lines = [f"{game.player(by)} asks to pause \"{game.title}\" for {days} day(s): deadlines stop meanwhile.",
             "", f"Accept or decline in the game: {game.url}"]
    return Composed(f"[Vedette] {game.player(by)} asks for a pause in {game.title}", "\n".join(lines) + "\n")


def pause_accepted(game: GameInfo, side: str, until: datetime) -> Composed:
    lines = [f"\"{game.title}\" is paused until {_fmt_time(until)}; no deadline runs until then.", "",
             f"The game: {game.url}"]
    return Composed(f"[Vedette] {game.title} is paused", "\n".join(lines) + "\n")


def extended(game: GameInfo, side: str, by: str, deadline_at: datetime) -> Composed:
    lines = [f"{game.player(by)} gave you more time in \"{game.title}\": decide before {_fmt_time(deadline_at)}.",
             "", f"Open the game: {game.url}"]
    return Composed(f"[Vedette] More time in {game.title}", "\n".join(lines) + "\n")


def digest_mail(username: str, notices: list[tuple[str, str]]) -> Composed:
    """Several held notices (subject, body) merged into one mail."""
    n = len(notices)
    lines = [f"{username}, {n} Vedette notice{'s' if n != 1 else ''} since the last digest:", ""]
    for i, (subject, body) in enumerate(notices, 1):
        lines.append(f"=== {i}. {subject.removeprefix('[Vedette] ')} ===")
        lines.append(body.rstrip())
        lines.append("")
    return Composed(f"[Vedette] Digest: {n} notice{'s' if n != 1 else ''}", "\n".join(lines))
