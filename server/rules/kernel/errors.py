"""Typed errors of the rules core.  Every refusal carries the rule number and a plain sentence."""

from __future__ import annotations


class IllegalCommand(ValueError):
    """A command the rules do not allow now; the game state is untouched."""

    def __init__(self, rule: str, message: str) -> None:
        self.rule = rule
        self.message = message
        super().__init__(f"{rule}: {message}")

    def to_json(self) -> dict[str, str]:
        return {"error": "illegal_command", "rule": self.rule, "message": self.message}


class MalformedCommand(IllegalCommand):
    """The command is not a well-formed command object at all."""

    def __init__(self, message: str) -> None:
        super().__init__("commands", message)

    def to_json(self) -> dict[str, str]:
        return {"error": "malformed_command", "rule": self.rule, "message": self.message}


class NotYourDecision(IllegalCommand):
    """The side that sent the command is not the side that must act now."""

    def __init__(self, message: str) -> None:
        super().__init__("3.3", message)
