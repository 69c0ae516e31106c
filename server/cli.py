"""The `vedette` console script.

Subcommands that need the web service (serve, migrate, create-admin) live in
`server.service_cli`; those that only need the rules core (simulate,
validate-scenario, replay) live in `server.rules_cli`, so the rules tools run
without importing the service stack.
"""

from __future__ import annotations

import argparse
import sys


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="vedette", description="Vedette: Musket & Saber referee server")
    sub = parser.add_subparsers(dest="command", required=True)
    from . import rules_cli

    rules_cli.add_parsers(sub)
    try:
        from . import service_cli
    except ImportError as e:  # the service stack is optional for the rules tools
        service_cli = None
        service_import_error: ImportError | None = e
    else:
        service_import_error = None
        service_cli.add_parsers(sub)
    args = parser.parse_args(argv)
    if getattr(args, "handler", None) is None:
        print(f"vedette: the service commands are unavailable ({service_import_error})", file=sys.stderr)
        return 2
    result: int = args.handler(args)
    return result


if __name__ == "__main__":
    sys.exit(main())
