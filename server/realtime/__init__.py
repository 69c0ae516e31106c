"""Live push: a broadcaster (memory or Postgres LISTEN/NOTIFY) and the per-process game hub."""

from .broadcast import Broadcast, BroadcastBackend, Event, MemoryBackend, PostgresBackend

__all__ = ["Broadcast", "BroadcastBackend", "Event", "MemoryBackend", "PostgresBackend"]
