"""The leak suite (issue 12): random legal games on a real server (uvicorn in a subprocess, SQLite), both
seats and a spectator on websockets, and EVERY channel a non-owner can read checked for hidden
information: websocket snapshots and patches (the views they build), REST views, history, history?at=,
command answers, refusals, records, the lobby, options, clocks, the scenario endpoints, the game's messages and
the mail digests in the outbox.

Hidden, for a viewer that is not the owner (R11, 3.2, 11.4 and the scenario's `hidden.enemy_reinforcements`):
  * the secret seed, until the game is over;
  * an enemy reinforcement not yet on the map: its id, its name, its schedule;
  * the fate of an enemy unit's step recovery (11.4): to the opponent a unit that will return, one that
    failed and one that never tried are all just "eliminated", and no event it may read names the unit in
    the command that decided it;
  * in Horse and Musket (hm-hochdorf), the cards in the other side's hand, and every card it draws (R16.19);
  * while the game runs, the seats' messages from the spectators and the spectators' messages from the seats, and
    each player's private note from everyone, its author included, in every channel but the note's own route
    (issue 44; `ChatMarks`).

The scenario is the tutorial with more replacement steps (so eliminated units try step recovery often) and
unit names that carry their ids (so a name in a text is recognised). The suite prints how many messages it
checked and fails on any leak.
"""

from __future__ import annotations

import json
import os
import random
import shutil
import socket
import sqlite3
import sys
import threading
import time
import uuid
from collections import Counter
from pathlib import Path
from typing import Any

import httpx
import jsonpatch
import pytest
from server_process import ServerProcess
from stored_game import stored_game

from server.config import Settings
from server.rules import Game, parse_scenario

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]

SEED = "leak-suite-server-seed-0123456789abcdef"
SCENARIO_ID = "leak-tutorial"
PASSWORD = "correct horse battery"
# `make test` plays one game of each battle but the tutorial's (its time budget); SERVER_LEAK_GAMES=N plays N of each
EXTRA = int(os.environ.get("SERVER_LEAK_GAMES", "0"))
GAMES = EXTRA or 2
MAX_COMMANDS = 260
SECRET_STATUSES = ("offboard", "returning", "dead")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def leak_scenario() -> dict[str, Any]:
    data = json.loads((ROOT / "scenarios" / "tutorial.json").read_text("utf-8"))
    data["id"], data["title"] = SCENARIO_ID, "Leak suite (the tutorial, more replacements)"
    data["hidden"] = {"enemy_reinforcements": True}
    for side in data["sides"].values():
        side["replacement_steps"] = 6
    for unit in data["units"]:
        unit["name"] = f"{unit['name']} [{unit['id']}]"
    return data


HIDDEN_ID = "leak-hidden"
HIDDEN_GAMES = EXTRA or 2


def hidden_leak_scenario() -> dict[str, Any]:
    """A Standard game with 19.8 hidden movement (tests/rules/standard/hidden_ground.py), names carrying ids."""
    sys.path.insert(0, str(ROOT))
    from tests.rules.standard.hidden_ground import hidden_data

    data = hidden_data()
    data["id"], data["title"] = HIDDEN_ID, "Leak suite (hidden movement, 19.8)"
    for unit in data["units"]:
        unit["name"] = f"{unit['name']} [{unit['id']}]"
    return data


S1866_ID = "leak-1866"
S1866_GAMES = EXTRA or 1


def shipped_leak_scenario(path: str, ident: str, title: str) -> dict[str, Any]:
    """A shipped battle (scenarios/`path`) under the suite's id and title, each unit's name carrying its id."""
    data = json.loads((ROOT / "scenarios" / path).read_text("utf-8"))
    data["id"], data["title"] = ident, title
    for unit in data["units"]:
        unit["name"] = f"{unit['name']} [{unit['id']}]"
    return data


def standard_1866_leak_scenario() -> dict[str, Any]:
    """The shipped battle standard-1866 (19.8 box A, 17.2 set-up areas, 17.4 arrivals), names carrying ids."""
    return shipped_leak_scenario("standard/standard-1866.json", S1866_ID, "Leak suite (The Swiepwald, 1866)")


HM_ID = "leak-hochdorf"
HM_GAMES = EXTRA or 1


def hochdorf_leak_scenario() -> dict[str, Any]:
    """The shipped Horse and Musket battle hm-hochdorf (R16.22; each side's hand of cards its own, R16.19)."""
    return shipped_leak_scenario("horse-and-musket/hm-hochdorf.json", HM_ID, "Leak suite (Hochdorf, Horse and Musket)")


class Socket:
    """A websocket reader thread keeping every text frame."""

    def __init__(self, url: str) -> None:
        from websockets.sync.client import connect

        self.ws = connect(url, open_timeout=10, max_size=None)
        self.frames: list[str] = []
        self.lock = threading.Lock()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        try:
            for frame in self.ws:
                with self.lock:
                    self.frames.append(frame if isinstance(frame, str) else frame.decode())
        except Exception:  # noqa: BLE001, S110 - the socket closed: the frames so far are what it sent
            pass

    def last_version(self) -> int:
        with self.lock:
            versions = [json.loads(f).get("version", -1) for f in self.frames]
        return max(versions, default=-1)

    def close(self) -> None:
        self.ws.close()
        self.thread.join(5)


class Truth:
    """What is hidden from whom at each version, from the engine as the server stores it."""

    def __init__(self, scenario: Any) -> None:
        self.sc = scenario
        self.status: dict[int, dict[str, str]] = {}
        self.placed: dict[int, dict[str, str]] = {}  # version -> unit -> hex of a secret set-up placement (17.2, 3.2)
        # version -> units their owner boxed during its set-up, not yet finished (19.8 B): shown to the others as not
        # yet placed, exactly as before the boxing (S78), so their ids are no secret then but their status is
        self.boxing: dict[int, set[str]] = {}
        self.nominal = {p.unit: p.hex for p in scenario.setup if p.within > 0}  # 3.2's public 'w/N' hexes
        self.over_at: int | None = None
        self.hides = scenario.hide_enemy_reinforcements  # else the reinforcements and losses are public
        self.hidden_reinforcements = {r.unit for r in scenario.reinforcements} if self.hides else set()
        hm = scenario.hidden_movement
        self.boxed = {u for b in hm.boxes for u in b.units} if hm is not None else set()  # 19.8
        self.hm_owner = hm.owner if hm is not None else None
        self.hidden_reinforcements |= self.boxed

    def note(self, version: int, game: Game) -> None:
        self.status[version] = {u: s.status for u, s in game.state.units.items()}
        self.placed[version] = {u: str(s.hex) for u, s in game.state.units.items() if s.provisional}
        st = game.state
        self.boxing[version] = {u for u, s in st.units.items() if s.status == "hidden" and st.phase == "setup"
                                and self.sc.units[u].side not in st.setup_done and u not in self.boxed}
        if game.is_over and self.over_at is None:
            self.over_at = version

    def secret_units(self, viewer: str, version: int) -> set[str]:
        """Units whose state at `version` is their owner's secret, for `viewer`."""
        statuses = self.status.get(version, {})
        out = set()
        for uid, status in statuses.items():
            d = self.sc.units[uid]
            if viewer == d.side:
                continue
            if status == "hidden" or (self.hides and (status in ("offboard", "returning") or
                                                      (status == "dead" and d.kind.is_combat))):
                out.add(uid)
        return out

    def offboard(self, viewer: str, version: int) -> set[str]:
        return {u for u in self.secret_units(viewer, version) if self.status[version][u] in ("offboard", "hidden")
                and u not in self.boxing.get(version, set())}

    def placements(self, viewer: str, version: int) -> dict[str, str]:
        """The enemy's placements `viewer` may not see at `version` (unit -> hex; not a public 'w/N' hex)."""
        return {u: h for u, h in self.placed.get(version, {}).items()
                if self.sc.units[u].side != viewer and self.nominal.get(u) != h}

    def public(self, version: int) -> bool:
        return self.over_at is not None and version >= self.over_at


class Checker:
    def __init__(self, truth: Truth) -> None:
        self.truth = truth
        self.checked = 0
        self.leaks: list[str] = []
        self.kinds: Counter[str] = Counter()

    def _leak(self, where: str, what: str) -> None:
        self.kinds[f"{where}: {what.split(' ')[0]} {what.split(' ')[1]}"] += 1
        if len(self.leaks) < 200:
            self.leaks.append(f"{where}: {what}")

    def _names(self, uid: str) -> tuple[str, str]:
        return f'"{uid}"', f"[{uid}]"

    def text(self, viewer: str, where: str, text: str, version: int, *, static: bool = False) -> None:
        """A whole message at `version`: no seed; no id or name of a hidden off-map enemy unit."""
        self.checked += 1
        if self.truth.public(version):
            return
        if SEED in text or '"seed":' in text:
            self._leak(where, f"the seed reached {viewer}")
        hidden = ({u for u in self.truth.hidden_reinforcements if self.truth.sc.units[u].side != viewer}
                  if static else self.truth.offboard(viewer, version))
        for uid in hidden:
            if any(n in text for n in self._names(uid)):
                self._leak(where, f"hidden reinforcement {uid} named to {viewer}")
        if '"real"' in text and self.truth.hm_owner is not None and viewer != self.truth.hm_owner:
            self._leak(where, f"a real marker flag reached {viewer}")
        if self.truth.hides and ("entry_turn" in text or "entry_hex" in text):
            data = json.loads(text)
            for uid, u in _units_of(data):
                if self.truth.sc.units[uid].side != viewer and ("entry_turn" in u or "entry_hex" in u):
                    self._leak(where, f"the schedule of {uid} reached {viewer}")

    def view(self, viewer: str, where: str, view: dict[str, Any]) -> None:
        version = int(view.get("version", -1))
        if self.truth.public(version) or version not in self.truth.status:
            return
        for uid in self.truth.secret_units(viewer, version):
            shown = (view.get("units") or {}).get(uid)
            status = self.truth.status[version][uid]
            if uid in self.truth.boxing.get(version, set()):  # S78: looks as it did before its owner boxed it
                if shown is not None and (shown.get("status") != "unplaced" or shown.get("hex") is not None):
                    self._leak(where, f"boxing of {uid} shown as {shown} to {viewer} at {version}")
            elif status in ("offboard", "hidden"):
                if shown is not None:
                    self._leak(where, f"offboard {uid} in {viewer}'s view at {version}")
            elif shown is None or shown.get("status") != "eliminated" or shown.get("hex") is not None or \
                    any(k in shown for k in ("entry_turn", "entry_hex")):
                self._leak(where, f"{status} {uid} shown as {shown} to {viewer} at {version}")
        hands = (view.get("cards") or {}).get("hands") or {}
        self.checked += bool(view.get("cards"))
        for side in hands:
            if side != viewer:  # R16.19: a hand is its owner's alone until the game is over
                self._leak(where, f"{side}'s hand of cards shown to {viewer} at {version}")
        for uid, hex_ in self.truth.placements(viewer, version).items():
            shown = (view.get("units") or {}).get(uid) or {}
            if shown.get("hex") == hex_ or "facing" in shown or shown.get("provisional"):
                self._leak(where, f"secret placement {uid} at {hex_} shown to {viewer} at {version}")

    def log(self, viewer: str, where: str, entries: list[dict[str, Any]]) -> None:
        for entry in entries:
            seq = int(entry.get("seq", 0))
            if self.truth.public(seq):
                continue
            secret = self.truth.secret_units(viewer, seq)
            placed = self.truth.placements(viewer, seq)
            for event in entry.get("events", []):
                self.checked += 1
                only = event.get("visible_to")
                if only is not None and only != viewer:
                    self._leak(where, f"an event for {only} reached {viewer}: {event}")
                if event.get("type") == "card_drawn" and event.get("side") != viewer:
                    self._leak(where, f"{viewer} reads {event.get('side')}'s drawn card at {seq}")
                named = _named(event)
                text = str(event.get("text", ""))
                for uid in secret:
                    if uid in named or f"[{uid}]" in text:
                        self._leak(where, f"{viewer} reads an event on secret {uid} at {seq}: {text}")
                for uid, hex_ in placed.items():
                    if (uid in named or f"[{uid}]" in text) and hex_ in json.dumps(event):
                        self._leak(where, f"{viewer} reads where {uid} was placed in secret at {seq}: {text}")

    def message(self, viewer: str, where: str, text: str, version: int) -> None:
        self.text(viewer, where, text, version)
        data = json.loads(text) if text.strip().startswith(("{", "[")) else None
        if isinstance(data, dict):
            if isinstance(data.get("view"), dict):
                self.view(viewer, where, data["view"])
            if isinstance(data.get("log"), list):
                self.log(viewer, where, data["log"])
            if isinstance(data.get("events"), list):
                self.log(viewer, where, [{"seq": data.get("seq", version), "events": data["events"]}])

    def mail(self, viewer: str, body: str, last_version: int) -> None:
        """A mail: its digest blocks "[seq] Side:" carry the texts of the events of command seq."""
        self.checked += 1
        blocks = [int(x.strip()[1:x.strip().index("]")]) for x in body.splitlines()
                  if x.strip().startswith("[") and "]" in x.strip() and x.strip()[1:x.strip().index("]")].isdigit()]
        # A line before the digest's blocks (its "Now:" line quotes the decision awaited) speaks of the state the
        # mail was written at: after its last block's command.
        now = max(blocks, default=last_version)
        seq = 0
        for line in body.splitlines():
            stripped = line.strip()
            if stripped.startswith("[") and "]" in stripped and stripped[1:stripped.index("]")].isdigit():
                seq = int(stripped[1:stripped.index("]")])
                continue
            if self.truth.public(seq or last_version):
                continue
            if SEED in line:
                self._leak("mail", f"the seed in {viewer}'s mail")
            for uid in self.truth.secret_units(viewer, seq or now):
                if f"[{uid}]" in line:
                    self._leak("mail", f"{viewer}'s mail names secret {uid} at {seq}: {stripped}")


def _named(event: dict[str, Any]) -> set[str]:
    out: set[str] = set()
    for key in ("unit", "units", "attackers", "defenders", "support", "artillery"):
        v = event.get(key)
        if isinstance(v, str):
            out.add(v)
        elif isinstance(v, list):
            out.update(x for x in v if isinstance(x, str))
    return out


def _units_of(data: Any) -> list[tuple[str, dict[str, Any]]]:
    out = []
    if isinstance(data, dict):
        units = data.get("units")
        if isinstance(units, dict):
            out.extend((k, v) for k, v in units.items() if isinstance(v, dict))
        for v in data.values():
            if isinstance(v, (dict, list)):
                out.extend(_units_of(v))
    elif isinstance(data, list):
        for v in data:
            out.extend(_units_of(v))
    return out


# Markers said in the games (issue 44): each is recognised in any text a viewer reads.
SEAT_MARK, SPECTATOR_MARK, NOTE_MARK = "SEATMSG-", "SPECMSG-", "PRIVATENOTE-"
CHAT_EVERY = 25  # a seat and the spectator speak every this many commands (well inside 5 messages in 10 s)


class ChatMarks:
    """Which markers a viewer may never read: a note's anywhere; the other channel's while the game runs."""

    def __init__(self) -> None:
        self.leaks: list[str] = []
        self.checked = 0

    def check(self, viewer: str, where: str, text: str, *, running: bool = True, frames: bool = False) -> None:
        self.checked += 1
        forbidden = [NOTE_MARK]
        if frames:  # a frame never holds a message: the page reads them over REST
            forbidden += [SEAT_MARK, SPECTATOR_MARK]
        elif running:
            forbidden.append(SEAT_MARK if viewer == "spectator" else SPECTATOR_MARK)
        for mark in forbidden:
            if mark in text:
                self.leaks.append(f"{viewer} reads {mark}... in {where}")


class Client:
    def __init__(self, base: str, name: str) -> None:
        self.http = httpx.Client(base_url=base, timeout=30)
        r = self.http.post("/api/users", json={"username": name, "password": PASSWORD, "email": f"{name}@example.org"})
        assert r.status_code == 201, r.text
        self.token = r.json()["token"]
        self.http.cookies.clear()
        self.http.headers["Authorization"] = f"Bearer {self.token}"
        self.email = f"{name}@example.org"


def _engine(db: Path, game_id: str, scenario: Any) -> Game:
    with sqlite3.connect(db) as conn:
        return stored_game(conn, game_id, scenario)


def _pick(game: Game, side: str, rng: random.Random) -> dict[str, Any]:
    """A legal command, biased to fight (so units are eliminated and try step recovery, 11.4) and to bring
    reinforcements on."""
    commands = list(game.legal_commands(side, random.Random(rng.random())))
    units = game.state.units
    recover = [c for c in commands if c.get("type") == "recover" and units[c["unit"]].status == "eliminated"]
    if recover:
        return rng.choice(recover)
    fights = [c for c in commands if c.get("type") in ("attack", "bombard", "charge", "choose", "recover")]
    if fights and rng.random() < 0.9:
        return rng.choice(fights)
    moves = [c for c in commands if c.get("type") == "move"]
    if moves and rng.random() < 0.85:
        grid = game.scenario.grid
        enemy = [u.hex for uid, u in units.items() if u.hex and game.scenario.units[uid].side != side and u.status == "map"]

        def closeness(c: dict[str, Any]) -> int:
            if "path" not in c:  # a move by legs (Horse and Musket): no hex to sort by
                return 0
            end = c["path"][-1]
            return min((grid.distance(end, h) for h in enemy), default=0)

        moves.sort(key=closeness)
        return rng.choice(moves[:3])
    others = [c for c in commands if c.get("type") not in ("end_phase", "end_step")]
    if others and rng.random() < 0.3:
        return rng.choice(others)
    ends = [c for c in commands if c.get("type") in ("end_phase", "end_step")]
    return ends[0] if ends else rng.choice(commands)


@pytest.fixture
def leak_server(sqlite_template: Path, tmp_path: Path) -> Any:
    scenarios = tmp_path / "scenarios"
    scenarios.mkdir()
    (scenarios / f"{SCENARIO_ID}.json").write_text(json.dumps(leak_scenario()), "utf-8")
    (scenarios / f"{HIDDEN_ID}.json").write_text(json.dumps(hidden_leak_scenario()), "utf-8")
    (scenarios / f"{S1866_ID}.json").write_text(json.dumps(standard_1866_leak_scenario()), "utf-8")
    (scenarios / f"{HM_ID}.json").write_text(json.dumps(hochdorf_leak_scenario()), "utf-8")
    db = tmp_path / "vedette.db"
    shutil.copy(sqlite_template, db)
    settings = Settings(env="development", database_url=f"sqlite+aiosqlite:///{db}", scenarios_dir=scenarios,
                        web_dir=ROOT / "web", migrations_dir=ROOT / "migrations")
    server = ServerProcess(settings, free_port(), tmp_path / "server.log", extra_env={
        "VEDETTE_ENV": "test", "VEDETTE_TEST_GAME_SEED": SEED,
        "VEDETTE_SECRET_KEY": "leak-suite-secret-key-0123456789abcdefghijklmnop",
        "VEDETTE_MAIL_WHEN_ONLINE": "true", "VEDETTE_OUTBOX_WORKER": "false",
    })
    try:
        yield server, Path(settings.database_url.split("///", 1)[1])
    finally:
        server.kill()


def run_games(leak_server: Any, scenario_id: str, data: dict[str, Any], games: int,
              rest_every: int = 3) -> tuple[dict[str, int], list[str], Counter[str]]:
    """Play `games` random games of the scenario on the server, checking every channel (the REST reads every
    `rest_every` versions, the websockets every one); (totals, leaks, kinds)."""
    server, db = leak_server
    scenario = parse_scenario(data, f"{scenario_id}.json")
    base, ws_base = server.url, server.url.replace("http://", "ws://")
    rng = random.Random(12)
    totals = {"checked": 0, "returns": 0, "lost": 0, "entered": 0, "commands": 0, "revealed": 0, "deployed": 0,
              "placed": 0}
    leaks: list[str] = []
    kinds: Counter[str] = Counter()
    outsider = Client(base, "outsider")
    for n in range(games):
        first, second = scenario.side_order  # blue and red in Quick Play
        blue, red, watcher = Client(base, f"{first}{n}"), Client(base, f"{second}{n}"), Client(base, f"watch{n}")
        seats = {first: blue, second: red}
        created = blue.http.post("/api/games", json={"scenario": scenario_id, "side": first})
        assert created.status_code == 201, created.text
        game = created.json()
        gid = game["id"]
        # each seat's own random value for the dice, after the commitment (docs/dice.md)
        blue.http.post(f"/api/games/{gid}/contribution", json={"contribution": f"{n:02x}" * 32})
        joined = red.http.post(f"/api/games/{gid}/join", json={"invite_token": game["invite_token"], "contribution": f"{n + 100:02x}" * 32})
        if joined.status_code == 422:  # a server from before the contributions
            joined = red.http.post(f"/api/games/{gid}/join", json={"invite_token": game["invite_token"]})
        assert joined.status_code == 200, joined.text
        truth = Truth(scenario)
        check = Checker(truth)
        chat = ChatMarks()
        for side, seat in seats.items():  # each player's private note: read by no one in any channel checked here
            noted = seat.http.put(f"/api/games/{gid}/note", json={"text": f"{NOTE_MARK}{side}-{n}"})
            assert noted.status_code == 200, noted.text
        engine = _engine(db, gid, scenario)
        truth.note(0, engine)
        sockets = {
            first: Socket(f"{ws_base}/ws/games/{gid}?token={blue.token}"),
            second: Socket(f"{ws_base}/ws/games/{gid}?token={red.token}"),
            "spectator": Socket(f"{ws_base}/ws/games/{gid}?token={watcher.token}&watch={game['watch_token']}"),
        }
        watch = f"watch={game['watch_token']}"
        readers = {first: blue.http, second: red.http, "spectator": watcher.http}
        for step in range(MAX_COMMANDS):
            if engine.is_over:
                break
            side = engine.awaiting
            assert side is not None
            other = second if side == first else first
            command = _pick(engine, side, rng)
            version = engine.version
            answer = seats[side].http.post(f"/api/games/{gid}/commands", json={
                "command": command, "expected_version": version, "command_id": str(uuid.uuid4())})
            assert answer.status_code == 200, answer.text
            # the other seat's refusals pass the same gate (a stale version: never applied)
            refused = seats[other].http.post(f"/api/games/{gid}/commands", json={
                "command": command, "expected_version": version, "command_id": str(uuid.uuid4())})
            assert refused.status_code >= 400, refused.text
            engine = _engine(db, gid, scenario)
            now = engine.version
            truth.note(now, engine)
            changed = {u: (truth.status[version][u], st) for u, st in truth.status[now].items()
                       if truth.status[version][u] != st}
            totals["deployed"] += "hm_deploy" in answer.text
            totals["placed"] += command.get("type") in ("place", "place_printed")
            totals["returns"] += sum(st == ("eliminated", "returning") for st in changed.values())
            totals["lost"] += sum(st == ("eliminated", "dead") for st in changed.values())
            totals["entered"] += command.get("type") == "move" and any(
                truth.status[version].get(u) in ("offboard", "returning") for u in command.get("units", []))
            check.message(other, "refusal", refused.text, now)
            chat.check(other, "refusal", refused.text)
            if step % CHAT_EVERY == 0:
                for speaker, http, mark in ((side, seats[side].http, SEAT_MARK), ("spectator", watcher.http, SPECTATOR_MARK)):
                    q = f"?watch={game['watch_token']}" if speaker == "spectator" else ""
                    said = http.post(f"/api/games/{gid}/messages{q}", json={"text": f"{mark}{n}-{step} <script>x</script>"})
                    assert said.status_code in (201, 429), said.text
                    totals["said"] = totals.get("said", 0) + (said.status_code == 201)
            assert now == version + 1
            if step % rest_every:
                continue  # every third version is read over REST too; the websockets carry every one
            for viewer, http in readers.items():
                q = "" if viewer != "spectator" else "?" + watch
                amp = "&" if q else "?"
                at = rng.randint(0, now)
                for where, url in (("view", f"/api/games/{gid}{q}"), ("history", f"/api/games/{gid}/history{q}"),
                                   ("history?at", f"/api/games/{gid}/history{q}{amp}at={at}"),
                                   ("record", f"/api/games/{gid}/record{q}"), ("clock", f"/api/games/{gid}/clock{q}"),
                                   ("messages", f"/api/games/{gid}/messages{q}"),
                                   ("messages?at", f"/api/games/{gid}/messages{q}{amp}at={at}"),
                                   ("scenario?game", f"/api/scenarios/{scenario_id}?game={gid}" + (f"&{watch}" if q else ""))):
                    if viewer == side and where not in ("history?at", "scenario?game"):
                        continue  # the side that just moved reads its own secrets; its opponent's are checked
                    r = http.get(url)
                    text = r.text
                    chat.check(viewer, where, text, running=not engine.is_over)  # over: both channels are read
                    if where.startswith("messages"):
                        continue
                    v = at if where == "history?at" else now
                    if where == "scenario?game":
                        check.text(viewer, where, text, v, static=True)
                        continue
                    check.message(viewer, where, text, v)
                if viewer != "spectator":
                    for where, url in (("lobby", "/api/games"), ("options", f"/api/games/{gid}/options?units=" +
                                                                 ",".join(sorted(scenario.units)))):
                        text = http.get(url).text
                        check.message(viewer, where, text, now)
                        chat.check(viewer, where, text)
            if step % 20 == 0:
                for where, url in (("scenario", f"/api/scenarios/{scenario_id}"), ("scenarios", "/api/scenarios")):
                    check.text("spectator", where, outsider.http.get(url).text, now, static=True)
        final = engine.version
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and min(s.last_version() for s in sockets.values()) < final:
            time.sleep(0.1)
        for viewer, sock in sockets.items():
            sock.close()
            view: dict[str, Any] | None = None
            for frame in sock.frames:
                message = json.loads(frame)
                version = int(message.get("version", 0))
                check.message(viewer, f"ws:{message.get('type')}", frame, version)
                chat.check(viewer, f"ws:{message.get('type')}", frame, frames=True)
                if message.get("type") == "snapshot":
                    view = message["view"]
                elif message.get("type") == "patch" and view is not None:
                    view = jsonpatch.apply_patch(view, message.get("patch") or [])
                    check.view(viewer, "ws:patched view", view)
        with sqlite3.connect(db) as conn:
            mails = conn.execute("SELECT to_addr, body FROM outbox WHERE game_id = ?", (gid,)).fetchall()
        for to_addr, body in mails:
            viewer = first if to_addr == blue.email else second
            check.mail(viewer, body, final)
            chat.check(viewer, "mail", body)  # a mail goes to a player while the game runs: never the spectators'
        # Once over: every reader reads both channels, and still no note, the admin's answers included.
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE users SET is_admin = 1 WHERE username = ?", (f"watch{n}",))
        for viewer, http in readers.items():
            q = "" if viewer != "spectator" else "?" + watch
            for where in ("messages", "record", "history"):
                chat.check(viewer, f"over:{where}", http.get(f"/api/games/{gid}/{where}{q}").text, running=False)
        for where, url in (("admin games", "/api/admin/games"), ("admin messages", f"/api/admin/games/{gid}/messages")):
            answer = watcher.http.get(url)
            assert answer.status_code == 200, answer.text
            chat.check("admin", where, answer.text, running=False)
        with sqlite3.connect(db) as conn:
            conn.execute("UPDATE users SET is_admin = 0 WHERE username = ?", (f"watch{n}",))
        leaks.extend(f"game {n}: {leak}" for leak in chat.leaks)
        kinds.update(leak.split(" in ")[0] for leak in chat.leaks)
        totals["checked"] += chat.checked
        totals["checked"] += check.checked
        totals["commands"] += final
        totals["revealed"] += len(engine.state.extra.get("hidden", {}).get("revealed", []))
        totals["cards"] = totals.get("cards", 0) + sum(
            len(p["discard"]) + len(p["hand"]) for p in engine.state.extra.get("cards", {}).get("sides", {}).values())
        leaks.extend(f"game {n}: {leak}" for leak in check.leaks)
        kinds.update(check.kinds)
    return totals, leaks, kinds


def test_no_channel_a_non_owner_reads_carries_hidden_information(leak_server: Any) -> None:
    totals, leaks, kinds = run_games(leak_server, SCENARIO_ID, leak_scenario(), GAMES)
    print(f"\nleak suite: {GAMES} games, {totals['commands']} commands, {totals['checked']} messages and events "
          f"checked; step recoveries returned {totals['returns']}, lost {totals['lost']}; "
          f"{totals['entered']} entries from off the map; {totals.get('said', 0)} messages said; "
          f"leaks found: {sum(kinds.values())}")
    for kind, count in kinds.most_common():
        print(f"  {count:6d}  {kind}")
    assert totals["returns"] and totals["lost"], "the games should exercise 11.4 both ways"
    assert totals.get("said", 0) >= 4, "the seats and the spectator should have spoken (issue 44)"
    assert totals["checked"] > 1000
    examples = {leak.split(": ", 2)[1]: leak for leak in leaks}
    assert not leaks, f"{sum(kinds.values())} leaks: {dict(kinds.most_common())}\n" + "\n".join(list(examples.values())[:15])


def test_no_channel_tells_a_non_owner_what_a_hidden_movement_box_holds(leak_server: Any) -> None:
    """19.8 A: a Standard game with hidden movement: no channel names a boxed unit or says which marker is real."""
    totals, leaks, kinds = run_games(leak_server, HIDDEN_ID, hidden_leak_scenario(), HIDDEN_GAMES)
    print(f"\nleak suite (19.8): {HIDDEN_GAMES} games, {totals['commands']} commands, {totals['checked']} messages and "
          f"events checked; boxes revealed {totals['revealed']}; leaks found: {sum(kinds.values())}")
    assert totals["checked"] > 500 and totals["revealed"], "the games should reveal boxes (19.8 D)"
    examples = {leak.split(": ", 2)[1]: leak for leak in leaks}
    assert not leaks, f"{sum(kinds.values())} leaks: {dict(kinds.most_common())}\n" + "\n".join(list(examples.values())[:15])


def test_standard_1866_no_channel_tells_prussia_or_a_spectator_box_a_or_austrias_set_up(leak_server: Any) -> None:
    """19.8 A and 17.2 on the shipped battle: every channel, a couple of random games through to their end."""
    totals, leaks, kinds = run_games(leak_server, S1866_ID, standard_1866_leak_scenario(), S1866_GAMES, rest_every=8)
    print(f"\nleak suite (standard-1866): {S1866_GAMES} games, {totals['commands']} commands, {totals['checked']} "
          f"messages and events checked; set-up placements {totals['placed']}, boxes revealed {totals['revealed']}, "
          f"deployment answers {totals['deployed']}; leaks found: {sum(kinds.values())}")
    assert totals["checked"] > 500 and totals["placed"] and totals["revealed"], "set-up and a reveal (17.2, 19.8 D)"
    examples = {leak.split(": ", 2)[1]: leak for leak in leaks}
    assert not leaks, f"{sum(kinds.values())} leaks: {dict(kinds.most_common())}\n" + "\n".join(list(examples.values())[:15])


def test_horse_and_musket_no_channel_shows_a_hand_of_cards_to_the_other_side(leak_server: Any) -> None:
    """R16.19 on the shipped battle hm-hochdorf: no view, patch, history, record, answer, refusal, option list or mail
    the other side or a spectator reads holds a hand but the reader's own, or names a card the other side drew."""
    totals, leaks, kinds = run_games(leak_server, HM_ID, hochdorf_leak_scenario(), HM_GAMES, rest_every=4)
    print(f"\nleak suite (hm-hochdorf): {HM_GAMES} games, {totals['commands']} commands, {totals['checked']} messages "
          f"and events checked; cards drawn or played {totals.get('cards', 0)}; leaks found: {sum(kinds.values())}")
    assert totals["checked"] > 500 and totals.get("cards", 0) > 4, "the games should draw and hold cards (R16.10)"
    examples = {leak.split(": ", 2)[1]: leak for leak in leaks}
    assert not leaks, f"{sum(kinds.values())} leaks: {dict(kinds.most_common())}\n" + "\n".join(list(examples.values())[:15])
