"""Runs one Pulumi Python program for our test-only language host (pulumi-language-python.py).

Started by the host with the program's own interpreter (its virtualenv), so ``pulumi`` and the
program's packages are that environment's. It configures ``pulumi.runtime`` from the command line and
the PULUMI_CONFIG / PULUMI_CONFIG_SECRET_KEYS variables, then runs the program (a directory with
``__main__.py``, or a file) as ``__main__`` inside the stack resource.
"""

from __future__ import annotations

import argparse
import asyncio
import logging
import os
import runpy
import sys
import traceback
from concurrent.futures import ThreadPoolExecutor

# Exit code the host turns into "bail": the error was already shown to the user through the engine.
EXIT_ALREADY_REPORTED = 32

try:
    import pulumi
    import pulumi.runtime
except ImportError:
    print(
        "The pulumi package is not installed in this program's Python environment "
        f"({sys.executable}). Install the program's requirements into its virtualenv "
        "(e.g. `venv/bin/pip install -r requirements.txt`) and try again.",
        file=sys.stderr,
    )
    sys.exit(1)


def parse() -> argparse.Namespace:
    ap = argparse.ArgumentParser(description="Run a Pulumi Python program")
    for name in ["project", "root_directory", "stack", "parallel", "dry_run", "pwd", "monitor", "engine",
                 "tracing", "organization"]:
        ap.add_argument(f"--{name}")
    ap.add_argument("PROGRAM")
    ap.add_argument("ARGS", nargs="*")
    return ap.parse_args()


def main() -> int:
    args = parse()
    config = pulumi.runtime.get_config_env()
    if hasattr(pulumi.runtime, "set_all_config"):
        pulumi.runtime.set_all_config(config, pulumi.runtime.get_config_secret_keys_env())
    else:  # an SDK older than the secret-keys variable: values only
        for key, value in config.items():
            pulumi.runtime.set_config(key, value)
    parallel = int(args.parallel) if args.parallel else None
    settings = {
        "monitor": args.monitor,
        "engine": args.engine,
        "project": args.project,
        "stack": args.stack,
        "parallel": parallel,
        "dry_run": args.dry_run == "true",
        "organization": args.organization,
        "root_directory": args.root_directory,
    }
    try:
        pulumi.runtime.configure(pulumi.runtime.Settings(**settings))
    except TypeError:  # an SDK whose Settings predate organization / root_directory
        for newer in ["organization", "root_directory"]:
            settings.pop(newer)
        pulumi.runtime.configure(pulumi.runtime.Settings(**settings))
    program = os.path.abspath(args.PROGRAM)
    sys.argv = [program, *args.ARGS]
    if args.pwd:
        os.chdir(args.pwd)
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)
    executor = ThreadPoolExecutor(max_workers=max(parallel or 1, 1) * 4)
    loop.set_default_executor(executor)
    # Outputs left unresolved after a failure make asyncio log noise the user cannot act on.
    logging.getLogger("asyncio").setLevel(logging.CRITICAL)
    if os.path.isdir(program) and not os.path.exists(os.path.join(program, "__main__.py")):
        pulumi.log.error(f"unable to find main python program `__main__.py` in `{program}`")
        return EXIT_ALREADY_REPORTED
    def run() -> None:
        runpy.run_path(program, run_name="__main__")

    try:
        loop.run_until_complete(pulumi.runtime.run_in_stack(run))
        return 0
    except pulumi.RunError as err:
        pulumi.log.error(str(err))
        return EXIT_ALREADY_REPORTED
    except Exception:  # noqa: BLE001 -- any failure of the program is reported to the user the same way
        pulumi.log.error("Program failed with an unhandled exception:\n" + traceback.format_exc())
        return EXIT_ALREADY_REPORTED
    finally:
        executor.shutdown(wait=True)
        loop.close()
        sys.stdout.flush()
        sys.stderr.flush()


if __name__ == "__main__":
    sys.exit(main())
