"""Server benchmark: N concurrent games, two websocket clients each, issuing commands.

Measures command->ack (the sender's round trip) and command->opponent-patch
(the other player's push) p50/p99, commands/s, and - in the same run - the two
floors under them: the bare INSERT+COMMIT round trip on the same database, and
the bare websocket relay (bench/bare_relay.py: a server that forwards a player's
frame to the other and does nothing else, on the same transport). Both are paced
through the measured window from processes of their own, and timed back to back
before and after it.

    .venv/bin/python bench/bench_server.py --db postgres --games 200 --seconds 30
    .venv/bin/python bench/bench_server.py --db sqlite --games 200 --seconds 30

Postgres runs in a throwaway schema of TEST_DATABASE_URL (default the local
server). Prints one JSON line per run; docs/benchmarks.md records real runs.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import platform
import random
import secrets
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import zlib
from pathlib import Path
from typing import Any

import bare_relay  # bench/bare_relay.py, beside this file (the script's own directory is on sys.path)
import httpx
import jsonpatch
import orjson

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
# VEDETTE_BENCH_SAMPLES=FILE writes every (time done, opponent patch ms, time sent) there, to see when the slow
# ones happen; both times are CLOCK_MONOTONIC, which a server-side harness's `time.monotonic()` shares.
SAMPLES: list[tuple[float, float, float]] | None = [] if os.environ.get("VEDETTE_BENCH_SAMPLES") else None
PG_URL = os.environ.get("TEST_DATABASE_URL", "postgresql+asyncpg://postgres@127.0.0.1:5432/test")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    k = min(len(ordered) - 1, max(0, round(p / 100 * (len(ordered) - 1))))
    return ordered[k]


async def bare_commit_latency(database_url: str, schema: str | None, n: int = 300,
                              pause: tuple[float, float] | None = None, seconds: float | None = None) -> list[float]:
    """INSERT+COMMIT round trips on the same database, through the same stack: back to back
    (`pause` None), or one every `pause` seconds (uniform) for `seconds`, as commands arrive."""
    from sqlalchemy import text

    from server.config import Settings
    from server.db import create_engine

    engine = create_engine(Settings(database_url=database_url, db_schema=schema))
    try:
        async with engine.connect() as conn:
            await conn.execute(text("CREATE TABLE IF NOT EXISTS bench_commit (id INTEGER, payload TEXT)"))
            await conn.commit()
            payload = "x" * 2000  # about a snapshot's order of magnitude

            async def commit_one(i: int) -> None:
                await conn.execute(text("INSERT INTO bench_commit VALUES (:i, :p)"), {"i": i, "p": payload})
                await conn.commit()

            return await bare_relay.timed_rounds(commit_one, n, pause, seconds, seed=7)
    finally:
        await engine.dispose()


def start_commit_probe(database_url: str, schema: str | None, seconds: float) -> subprocess.Popen[bytes]:
    """The bare commit measured DURING the run, paced like one game's commands, from a process of
    its own (the load generator's busy event loop would otherwise be part of what it times)."""
    return subprocess.Popen(
        [sys.executable, __file__, "--probe-bare-commit", "--db-url", database_url, "--schema", schema or "",
         "--seconds", str(seconds)],
        cwd=ROOT, stdout=subprocess.PIPE,
    )


def next_command(view: dict[str, Any]) -> dict[str, Any]:
    """Answer a prompt with its first option, otherwise end the phase: always legal, never slow."""
    prompt = view.get("prompt") or {}
    options = prompt.get("options") or []
    if prompt.get("side") == view.get("viewer") and options:
        return {"type": "choose", "option": options[0]["id"]}
    return {"type": "end_phase"}


class Barrier:
    """Every game keeps its websockets open until all games have stopped measuring: otherwise the
    first games to finish would close hundreds of sockets while others still time commands, and the
    run would measure that disconnect storm instead of steady play."""

    def __init__(self, parties: int) -> None:
        self.parties = parties
        self.arrived = 0
        self.all_arrived = asyncio.Event()

    async def arrive(self) -> None:
        self.arrived += 1
        if self.arrived >= self.parties:
            self.all_arrived.set()
        await self.all_arrived.wait()


def apply_in_place(view: dict[str, Any], patch: list[dict[str, Any]]) -> Any:
    """A patch applied to the view it patches, as the page does (web/js: the view is the page's own).
    jsonpatch's default deep-copies the whole view first, 0.35 ms for a Hougoumont view against 0.03 ms
    in place: two per command, it was the load generator's largest cost, and its loop's stalls showed
    in the measured latencies (docs/benchmarks.md, session 17)."""
    return jsonpatch.apply_patch(view, patch, in_place=True)


class PageSocket:
    """A player's websocket as the page opens it (`batch=1`, web/js/ui/socket.js): `recv` gives one
    message at a time, with the time its frame arrived; a server that does not batch (an older commit)
    sends one message per frame, which reads the same."""

    def __init__(self, ws: Any) -> None:
        self.ws = ws
        self.pending: list[dict[str, Any]] = []
        self.arrived = 0.0

    async def recv(self) -> tuple[float, dict[str, Any]]:
        if not self.pending:
            frame = orjson.loads(await self.ws.recv())
            self.arrived = time.perf_counter()
            self.pending = frame["messages"] if frame.get("type") == "batch" else [frame]
        return self.arrived, self.pending.pop(0)

    async def send(self, text: str) -> None:
        await self.ws.send(text)


class Seat:
    def __init__(self, side: str) -> None:
        self.side = side
        self.view: dict[str, Any] = {}
        self.version = 0


async def play_game(ws_url_of: Any, game_id: str, tokens: dict[str, str], deadline: list[float],
                    acks: list[float], pushes: list[float], errors: list[str],
                    ready: asyncio.Event, connecting: asyncio.Semaphore, connected: list[int],
                    think: float = 0.0, rng: Any = None, teardown: Barrier | None = None,
                    warmup: int = 0, new_game: Any = None) -> int:
    """Two players on one game; when it ends inside the measured window they start another
    (lobby and handshakes included), so the offered load stays at the stated number of games."""
    import websockets

    done = 0
    first = True
    last_t0 = [0.0]  # when the last timed command was sent (for SAMPLES)
    while True:
        if first:
            await connecting.acquire()  # ramp up: a few handshakes at a time, as real players arrive
        first_side, second_side = SIDES
        ws_url = ws_url_of(game_id)
        async with websockets.connect(f"{ws_url}/ws/games/{game_id}?batch=1&token={tokens[first_side]}", max_size=None, open_timeout=120) as ws_first, \
                websockets.connect(f"{ws_url}/ws/games/{game_id}?batch=1&token={tokens[second_side]}", max_size=None, open_timeout=120) as ws_second:
            sockets = {first_side: PageSocket(ws_first), second_side: PageSocket(ws_second)}
            seats = {first_side: Seat(first_side), second_side: Seat(second_side)}
            for side, ws in sockets.items():
                _, hello = await ws.recv()
                seats[side].view, seats[side].version = hello["view"], hello["version"]
            if first:
                connecting.release()

            async def step(seats: dict[str, Seat] = seats,
                           sockets: dict[str, Any] = sockets) -> tuple[float, float] | str:
                """One command by whoever must decide: (ack ms, opponent patch ms), or why not."""
                awaiting = seats[SIDES[0]].view.get("awaiting")
                if awaiting not in sockets:
                    return "over"
                mover, other = awaiting, (SIDES[1] if awaiting == SIDES[0] else SIDES[0])
                command = next_command(seats[mover].view)
                version = seats[mover].version
                async def opponent_patch() -> float:
                    # Read concurrently with the mover's socket and timed on arrival: the
                    # opponent's patch is not made to wait behind the mover's own messages.
                    arrived = 0.0
                    while seats[other].version <= version:
                        arrived, message = await sockets[other].recv()
                        if message["type"] == "patch":
                            seats[other].view = apply_in_place(seats[other].view, message["patch"])
                            seats[other].version = message["version"]
                    return (arrived - t0) * 1000

                t0 = time.perf_counter()
                last_t0[0] = t0
                await sockets[mover].send(json.dumps({
                    "type": "command", "command": command, "expected_version": version,
                    "command_id": secrets.token_hex(8)}))
                opponent = asyncio.create_task(opponent_patch())
                ack_ms = None
                got_patch = False
                while not (ack_ms is not None and got_patch):
                    arrived, message = await sockets[mover].recv()
                    if message["type"] == "ack":
                        ack_ms = (arrived - t0) * 1000
                    elif message["type"] == "patch":
                        seats[mover].view = apply_in_place(seats[mover].view, message["patch"])
                        seats[mover].version = message["version"]
                        got_patch = message["version"] > version
                    elif message["type"] == "error":
                        errors.append(message.get("message", "error"))
                        opponent.cancel()
                        return "error"
                return ack_ms, await opponent

            if first:
                # Unmeasured: bring the game to its own point of play, so that the games are not
                # all at the same turn and do not all end in the same few seconds.
                for _ in range(warmup):
                    if isinstance(await step(), str):
                        break
                connected[0] += 1
                await ready.wait()  # every game starts issuing commands together
                if think and rng is not None:
                    await asyncio.sleep(rng.uniform(0, think))  # spread first commands over one think time
            outcome = "deadline"
            while time.monotonic() < deadline[0]:
                if think and rng is not None:
                    await asyncio.sleep(rng.uniform(0.5 * think, 1.5 * think))  # a player's pause between commands
                timed = await step()
                if isinstance(timed, str):
                    outcome = timed
                    break
                acks.append(timed[0])
                pushes.append(timed[1])
                if SAMPLES is not None:
                    SAMPLES.append((round(time.monotonic(), 4), round(timed[1], 2), last_t0[0]))
                done += 1
            if outcome != "over" or new_game is None or time.monotonic() >= deadline[0]:
                if teardown is not None:
                    await teardown.arrive()
                return done
        game_id = await new_game()
        first = False


def lobby_client(base: str) -> httpx.AsyncClient:
    """The load generator's one HTTP client for its games' lobby requests, built once: building an
    `httpx.AsyncClient` loads the CA bundle into a new SSL context, 17 ms of the client's loop here, and
    a client built per replaced game stalled every game it measured (docs/benchmarks.md, session 23).
    No kept-alive connections: each request opens its own, as a fresh client did, so that none is found
    closed by the server's keep-alive timeout after a long game."""
    return httpx.AsyncClient(base_url=base, timeout=60, limits=httpx.Limits(max_keepalive_connections=0))


async def play_against_computer(base: str, token: str, args: argparse.Namespace, bot_moves: list[int],
                                deadline: list[float]) -> None:
    """A person who answers the computer at once, game after game; counts the computer's decisions."""
    import websockets

    headers = {"Authorization": f"Bearer {token}"}
    lobby = lobby_client(base)
    while True:
        r = await lobby.post("/api/games", headers=headers, json={
            "scenario": args.scenario, "side": SIDES[0], "opponent": "computer", "computer_level": args.bot_level})
        game_id = r.json()["id"]
        url = base.replace("http://", "ws://") + f"/ws/games/{game_id}?token={token}"
        async with websockets.connect(url, max_size=None, open_timeout=120) as ws:
            hello = json.loads(await ws.recv())
            view, version = hello["view"], hello["version"]
            while view.get("phase") != "over":
                if view.get("awaiting") == SIDES[0]:
                    await ws.send(json.dumps({"type": "command", "command": next_command(view),
                                              "expected_version": version, "command_id": secrets.token_hex(8)}))
                message = json.loads(await ws.recv())
                if message["type"] == "patch":
                    view = apply_in_place(view, message["patch"])
                    bot_moves[0] += sum(1 for entry in message.get("log", []) if entry.get("side") == SIDES[1])
                    version = message["version"]
                elif message["type"] == "snapshot":
                    view, version = message["view"], message["version"]


async def loop_lag(lags: list[float], deadline: list[float]) -> None:
    """The lateness of 1 ms sleeps on the bench's loop during the window (its own stalls: parsing
    snapshots and patches of hundreds of games, starting new ones)."""
    while time.monotonic() < deadline[0]:
        before = time.perf_counter()
        await asyncio.sleep(0.001)
        lags.append((time.perf_counter() - before) * 1000 - 1.0)


def pin_local_postgres(cpus: str) -> dict[int, set[int]]:
    """`--db-cpus`: every process of the local Postgres server (the postmaster, whose new backends inherit
    its cores, and the running ones) on these cores for the run, as a database on cores or a host of its
    own would be; returns each process's cores before, to restore them after."""
    wanted = {int(c) for c in cpus.split(",")}
    before: dict[int, set[int]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if (entry / "comm").read_text().strip() != "postgres":
                continue
            pid = int(entry.name)
            before[pid] = os.sched_getaffinity(pid)
            os.sched_setaffinity(pid, wanted)
        except OSError:  # gone meanwhile, or not ours to change
            continue
    if not before:
        raise RuntimeError("--db-cpus: no local postgres process could be pinned")
    return before


def cpu_steal_ticks() -> tuple[int, int]:
    """(steal, all) clock ticks of every CPU since boot (Linux /proc/stat): the share the hypervisor took."""
    try:
        fields = [int(f) for f in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
    except (OSError, ValueError):
        return 0, 0
    return (fields[7] if len(fields) > 7 else 0), sum(fields[:8])


def cpu_seconds(pid: int) -> float:
    """User+system CPU of a process and its children (Linux /proc), to put latencies in context."""
    total = 0.0
    try:
        pids = [pid] + [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]
        for p in pids:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    except OSError:
        pass
    return total



async def pg_schema(prefix: str) -> str:
    """A fresh Postgres schema for one bench run (dropped by `drop_pg_schema`)."""
    import asyncpg

    from server.db import asyncpg_dsn

    schema = f"{prefix}_{secrets.token_hex(3)}"
    conn = await asyncpg.connect(asyncpg_dsn(PG_URL))
    await conn.execute(f'CREATE SCHEMA "{schema}"')
    await conn.close()
    return schema


async def bench_database(db: str, prefix: str, workdir: Path) -> tuple[Any, str | None]:
    """A fresh, migrated database for one bench run: its Settings, and the Postgres schema made for it
    (drop it with `drop_pg_schema`), or None for a SQLite file in `workdir`."""
    from server.config import Settings
    from server.migrate import upgrade_head

    schema = await pg_schema(prefix) if db == "postgres" else None
    url = PG_URL if schema is not None else f"sqlite+aiosqlite:///{workdir / 'bench.db'}"
    settings = Settings(database_url=url, db_schema=schema)
    await asyncio.to_thread(upgrade_head, settings)
    return settings, schema


async def drop_pg_schema(schema: str) -> None:
    import asyncpg

    from server.db import asyncpg_dsn

    conn = await asyncpg.connect(asyncpg_dsn(PG_URL))
    await conn.execute(f'DROP SCHEMA "{schema}" CASCADE')
    await conn.close()


def start_server(env: dict[str, str], port: int, workers: int, log: Path,
                 cpus: str | None = None) -> subprocess.Popen[bytes]:
    if os.environ.get("VEDETTE_BENCH_PROFILE"):
        command = [sys.executable, os.environ["VEDETTE_BENCH_PROFILE"], str(port)]
    else:
        # The server as users run it (`make run` is `vedette serve`), with its transport settings.
        command = [sys.executable, "-m", "server.cli", "serve", "--host", "127.0.0.1", "--port", str(port),
                   "--workers", str(workers), "--log-level", "warning", "--no-access-log"]
    if cpus:  # the server (and every process it starts) on these cores only; taskset is util-linux's
        command = ["taskset", "-c", cpus, *command]
    proc = subprocess.Popen(  # the log stays open as the server's stdout for as long as it runs
        command,
        cwd=ROOT, env={**os.environ, **env}, stdout=open(log, "wb"), stderr=subprocess.STDOUT,  # noqa: SIM115
    )
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        try:
            if httpx.get(f"http://127.0.0.1:{port}/healthz", timeout=1).status_code == 200:
                return proc
        except httpx.HTTPError:
            time.sleep(0.2)
    proc.kill()
    raise RuntimeError(f"server did not start; see {log}")


SIDES: tuple[str, str] = ("blue", "red")


async def run(args: argparse.Namespace) -> dict[str, Any]:
    global SIDES
    scenario = json.loads((ROOT / "scenarios" / f"{args.scenario}.json").read_text())
    SIDES = tuple(scenario.get("side_order") or list(scenario["sides"]))[:2]  # type: ignore[assignment]
    workdir = Path(tempfile.mkdtemp(prefix="vedette-bench-"))
    settings, schema = await bench_database(args.db, "vedette_bench", workdir)
    database_url = settings.database_url
    # Each worker holds an ORM pool and the command path's driver pool: shared out so that N workers
    # stay inside Postgres's default 100 connections (the bench's own probe needs some too).
    env = {"DATABASE_URL": database_url, "VEDETTE_DB_SCHEMA": schema or "",
           "VEDETTE_NOTIFY_CHANNEL": f"bench_{secrets.token_hex(3)}",
           "VEDETTE_DB_POOL_SIZE": str(max(5, 20 // max(1, args.workers * args.processes))),
           # The bench plays far more games per account than a person may start (issue 12 quotas).
           "VEDETTE_GAMES_PER_HOUR": "1000000", "VEDETTE_MAX_WAITING_GAMES": "100000"}
    workers = args.workers if args.db == "postgres" else 1
    processes = args.processes if args.db == "postgres" else 1
    ports = [free_port() for _ in range(processes)]
    procs = [start_server(env, port, workers, workdir / f"server-{port}.log", args.server_cpus) for port in ports]
    proxy = None
    if args.proxy:  # HAProxy with the repository's config (deploy/haproxy.cfg) in front: every request through it
        sys.path.insert(0, str(ROOT / "tests" / "support"))
        from proxy_process import ProxyProcess

        proxy = ProxyProcess([f"127.0.0.1:{port}" for port in ports], free_port(), workdir)
    relay = None
    if args.client_cpus:
        os.sched_setaffinity(0, {int(c) for c in args.client_cpus.split(",")})
    restore_db_cpus: dict[int, set[int]] = {}
    try:
        if args.db_cpus and args.db == "postgres":
            restore_db_cpus = pin_local_postgres(args.db_cpus)
        relay, relay_port = bare_relay.start_server()
        bases = [proxy.url] if proxy is not None else [f"http://127.0.0.1:{port}" for port in ports]
        base = bases[0]
        http = httpx.AsyncClient(base_url=base, timeout=60)
        lobbies = [lobby_client(b) for b in bases]
        created = [0]

        def owner(game_id: str) -> int:
            """`--processes`: the process that serves a game's join and sockets, as a proxy hashing the game
            id would choose it (docs/benchmarks.md, "Scale-out")."""
            return zlib.crc32(game_id.encode()) % len(bases)

        def ws_url_of(game_id: str) -> str:
            return bases[owner(game_id)].replace("http://", "ws://")
        tokens = {}
        for side in SIDES:
            r = await http.post("/api/users", json={"username": f"bench{side}", "password": "password123",
                                                     "email": f"{side}@example.org"})
            tokens[side] = r.json()["token"]

        async def new_game() -> str:
            created[0] += 1  # a new game has no id to hash yet: any process takes its creation
            creator, joiner = ({"Authorization": f"Bearer {tokens[side]}"} for side in SIDES)
            r = await lobbies[created[0] % len(lobbies)].post(
                "/api/games", json={"scenario": args.scenario, "side": SIDES[0]}, headers=creator)
            game = r.json()
            if r.status_code != 201 and "id" not in game:
                raise RuntimeError(f"creating a game: {r.status_code} {r.text}")
            await lobbies[owner(game["id"])].post(
                f"/api/games/{game['id']}/join", json={"invite_token": game["invite_token"]}, headers=joiner)
            return str(game["id"])

        games = [await new_game() for _ in range(args.games)]
        started_before_run = [0]
        bot_moves = [0]
        bot_tasks = []
        if args.bot_games:
            # Games against the computer beside the measured ones: a person who answers at once, and
            # the computer thinking its full budget on every decision (issue 15: it must not slow the others).
            r = await http.post("/api/users", json={"username": "benchsolo", "password": "password123",
                                                     "email": "solo@example.org"})
            solo = r.json()["token"]
            bot_deadline = [float("inf")]
            bot_tasks = [asyncio.create_task(play_against_computer(base, solo, args, bot_moves, bot_deadline))
                         for _ in range(args.bot_games)]

        async def replacement_game() -> str:
            started_before_run[0] += 1
            return await new_game()
        commit_before = await bare_commit_latency(database_url, schema)
        relay_before = await bare_relay.relay_latency(relay_port)
        acks: list[float] = []
        pushes: list[float] = []
        errors: list[str] = []
        ready = asyncio.Event()
        connecting = asyncio.Semaphore(10)
        connected = [0]
        deadline = [float("inf")]
        teardown = Barrier(len(games))
        tasks = [asyncio.create_task(play_game(ws_url_of, g, tokens, deadline, acks,
                                               pushes, errors, ready, connecting, connected,
                                               args.think, random.Random(i), teardown,
                                               random.Random(-i).randrange(args.spread + 1), replacement_game))
                 for i, g in enumerate(games)]
        while connected[0] < len(games):
            if any(t.done() for t in tasks):
                raise RuntimeError(next(t.exception() for t in tasks if t.done()))
            await asyncio.sleep(0.1)
        probe = start_commit_probe(database_url, schema, args.seconds)
        relay_probe = bare_relay.start_probe(relay_port, args.seconds)
        cpu_before = sum(cpu_seconds(proc.pid) for proc in procs)
        proxy_cpu_before = cpu_seconds(proxy.proc.pid) if proxy is not None else 0.0
        steal_before = cpu_steal_ticks()
        client_cpu_before = time.process_time()
        start = time.monotonic()
        deadline[0] = start + args.seconds
        client_lags: list[float] = []
        lag_probe = asyncio.create_task(loop_lag(client_lags, deadline))
        ready.set()
        bot_moves_before = bot_moves[0]
        counts = await asyncio.gather(*tasks)
        bot_moves_in_window = bot_moves[0] - bot_moves_before
        for task in bot_tasks:
            task.cancel()
        commit_during = json.loads((await asyncio.to_thread(probe.communicate, None, 120))[0] or b"[]")
        relay_during = json.loads((await asyncio.to_thread(relay_probe.communicate, None, 120))[0] or b"[]")
        elapsed = time.monotonic() - start
        server_cpu = sum(cpu_seconds(proc.pid) for proc in procs) - cpu_before
        proxy_cpu = cpu_seconds(proxy.proc.pid) - proxy_cpu_before if proxy is not None else 0.0
        steal_after = cpu_steal_ticks()
        client_cpu = time.process_time() - client_cpu_before
        lag_probe.cancel()
        commit_after = await bare_commit_latency(database_url, schema)
        relay_after = await bare_relay.relay_latency(relay_port)
        await http.aclose()
        for lobby in lobbies:
            await lobby.aclose()
    finally:
        if proxy is not None:
            proxy.stop()
        if relay is not None:
            relay.terminate()
            relay.wait(10)
        for pid, cpus in restore_db_cpus.items():
            with contextlib.suppress(OSError):
                os.sched_setaffinity(pid, cpus)
        for proc in procs:
            proc.send_signal(signal.SIGTERM)
        for proc in procs:
            try:
                proc.wait(15)
            except subprocess.TimeoutExpired:
                proc.kill()
        if schema:
            await drop_pg_schema(schema)
    commits = commit_before + commit_after

    def summary(values: list[float]) -> dict[str, float]:
        return {"p50": round(percentile(values, 50), 3), "p99": round(percentile(values, 99), 3),
                "mean": round(statistics.mean(values), 3) if values else float("nan"), "n": len(values)}
    result = {
        "db": args.db, "workers": workers, "processes": processes, "games": args.games, "think_s": args.think, "spread": args.spread, "seconds": round(elapsed, 1),
        "commands": sum(counts), "commands_per_s": round(sum(counts) / elapsed, 1),
        # Games that ended inside the window were replaced at once (lobby, handshakes, snapshots and
        # game-over mails all inside the measured run).
        "games_replaced": started_before_run[0],
        "ack_ms": {"p50": round(percentile(acks, 50), 2), "p99": round(percentile(acks, 99), 2)},
        "opponent_patch_ms": {"p50": round(percentile(pushes, 50), 2), "p99": round(percentile(pushes, 99), 2)},
        # The bare commit in the measured window, one every 0.05-0.15 s on its own connection (a
        # pooled connection's backend is as idle between a game's commands), and back to back
        # before and after the window (the database's best case: a hot backend).
        "bare_insert_commit_ms": summary(commit_during),
        "bare_insert_commit_back_to_back_ms": summary(commits),
        # The bare websocket relay (bench/bare_relay.py): a frame from one player's socket to the
        # other's through a server that does nothing else, on the same transport - paced as the bare
        # commit in the window, and back to back before and after it.
        "bare_relay_ms": summary(relay_during),
        "bare_relay_back_to_back_ms": summary(relay_before + relay_after),
        "server_cpu_ms_per_command": round(server_cpu * 1000 / max(1, sum(counts)), 2),
        # --proxy: HAProxy's own CPU per command (not in the server's), every request and frame through it.
        "proxy": bool(args.proxy),
        "proxy_cpu_ms_per_command": round(proxy_cpu * 1000 / max(1, sum(counts)), 3) if args.proxy else None,
        # The load generator shares the machine: past about one core it, not the server, sets the pace.
        "client_cpu_percent": round(100 * client_cpu / elapsed, 1),
        # How late the bench's own event loop ran (1 ms sleeps): a latency is only as exact as this.
        "client_loop_lag_ms": summary(client_lags) if client_lags else None,
        "load_average": os.getloadavg()[0],
        # Time the hypervisor gave to other guests in the window (all CPUs): a noisy VM's runs are not comparable.
        "steal_percent": round(100 * (steal_after[0] - steal_before[0]) / max(1, steal_after[1] - steal_before[1]), 1),
        "errors": len(errors),
        "server_cpus": args.server_cpus, "client_cpus": args.client_cpus, "db_cpus": args.db_cpus,
        "bot_games": args.bot_games, "bot_level": args.bot_level if args.bot_games else None,
        "bot_decisions_in_window": bot_moves_in_window if args.bot_games else None,
        "machine": f"{platform.machine()} {os.cpu_count()} cpu, Python {platform.python_version()}",
    }
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--db", choices=["postgres", "sqlite"], default="postgres")
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--seconds", type=float, default=30)
    parser.add_argument("--workers", type=int, default=1, help="server worker processes (Postgres only)")
    parser.add_argument("--processes", type=int, default=1,
                        help="separate servers, each game's join and sockets sent to one of them by a hash of its id, "
                             "as a proxy in front of them would (Postgres only)")
    parser.add_argument("--proxy", action="store_true",
                        help="put Debian's HAProxy with deploy/haproxy.cfg in front of the --processes servers and send "
                             "everything through it (it does the hashing; docs/deployment.md)")
    parser.add_argument("--scenario", default="tutorial")
    parser.add_argument("--think", type=float, default=0.0,
                        help="mean seconds a player waits between commands (0: every game commands as fast as it can)")
    parser.add_argument("--spread", type=int, default=24,
                        help="before measuring, advance each game by a random 0..N commands (unmeasured), so that "
                             "games are at different points and do not all end together")
    parser.add_argument("--bot-games", type=int, default=0,
                        help="also run N games against the computer beside the measured ones (not measured)")
    parser.add_argument("--bot-level", default="search", choices=["random", "greedy", "search"])
    parser.add_argument("--server-cpus", help="run the server on these cores only (taskset -c list, e.g. 0)")
    parser.add_argument("--client-cpus", help="run this client on these cores only (comma list, e.g. 1)")
    parser.add_argument("--db-cpus", help="run the local Postgres server on these cores only during the run "
                                          "(comma list, e.g. 1; needs the right to change its processes)")
    parser.add_argument("--probe-bare-commit", action="store_true", help=argparse.SUPPRESS)
    parser.add_argument("--db-url", help=argparse.SUPPRESS)
    parser.add_argument("--schema", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.probe_bare_commit:
        print(json.dumps(asyncio.run(bare_commit_latency(
            args.db_url, args.schema or None, pause=(0.05, 0.15), seconds=args.seconds))))
        return
    print(json.dumps(asyncio.run(run(args))))
    if SAMPLES is not None:
        Path(os.environ["VEDETTE_BENCH_SAMPLES"]).write_text(json.dumps(SAMPLES))


if __name__ == "__main__":
    main()
