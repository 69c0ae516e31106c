"""Asynchronous play: mail (through a transactional outbox), turn digests, preferences,
decision deadlines with a scheduler, pauses, claims, and standing orders.

The game services call `NotifyHooks` inside their own transactions (a join's mails commit with
the join; a command marks the mails it owes, which follow its commit); everything else here runs
in background tasks of the app process (or `vedette scheduler`).
"""
