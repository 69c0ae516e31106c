"""Asynchronous play: mail (through a transactional outbox), turn digests, preferences,
decision deadlines with a scheduler, pauses, claims, and standing orders.

The game service calls `NotifyHooks` inside its own transactions (so a mail row
commits with the command that causes it); everything else here runs in
background tasks of the app process (or `vedette scheduler`).
"""
