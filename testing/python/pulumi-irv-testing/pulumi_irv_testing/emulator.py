"""Starting and stopping the IRV emulator (``irv-emulator``) around a test."""

from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import tempfile
import threading
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType
from typing import IO, TYPE_CHECKING, Any, Optional, Sequence, Type, Union

if TYPE_CHECKING:
    from .webhooks import WebhookSink

__all__ = ["Emulator", "EmulatorError", "RunningEmulator", "find_executable", "start_emulator"]


class EmulatorError(RuntimeError):
    """The emulator could not be found or started; the message names the cause."""


@dataclass(frozen=True)
class Emulator:
    """A running emulator: what its ready line said, and where its data is."""

    base_url: str
    """The API base URL (``irv:baseUrl``, ``IRV_BASE_URL``)."""
    auth_url: str
    """The token-exchange base URL (``irv:authUrl``, ``IRV_AUTH_URL``)."""
    issuer_url: str
    """The emulator's local OIDC issuer, which mints workload tokens for tests."""
    org_uid: str
    """The root organization's uid."""
    admin_token: str
    """A bearer token of the organization's owner (``irv:token``, ``IRV_TOKEN``)."""
    data_dir: Path
    """The directory of the emulator's database; removed when the emulator stops."""

    def env(self) -> dict[str, str]:
        """The provider's environment for this emulator: ``IRV_BASE_URL``, ``IRV_AUTH_URL``, ``IRV_TOKEN``.

        Example: ``LocalWorkspaceOptions(env_vars=emulator.env())``.
        """
        return {"IRV_BASE_URL": self.base_url, "IRV_AUTH_URL": self.auth_url, "IRV_TOKEN": self.admin_token}

    def config(self) -> dict[str, str]:
        """Stack configuration for this emulator in the provider's ``irv`` namespace (``irv:token`` is the secret)."""
        return {"irv:baseUrl": self.base_url, "irv:authUrl": self.auth_url, "irv:token": self.admin_token}

    def configure_stack(self, stack: Any) -> None:
        """Sets :meth:`config` on an Automation API stack, ``irv:token`` as a secret.

        Example: ``irv_emulator.configure_stack(auto.create_or_select_stack(...))``.
        """
        from pulumi import automation as auto

        stack.set_all_config(
            {key: auto.ConfigValue(value=value, secret=key == "irv:token") for key, value in self.config().items()}
        )

    def subscribe(self, group_uid: Optional[str] = None) -> "WebhookSink":
        """A receiver on loopback subscribed to the events of ``group_uid`` (default: the organization) and every
        group below it; use it as a context manager, which unsubscribes and stops it.

        Example::

            with irv_emulator.subscribe() as sink:
                stack.up()
                sink.wait_for("dev.chainguard.api.iam.group.created.v1")
        """
        from .webhooks import subscribe

        return subscribe(self.base_url, self.admin_token, group_uid or self.org_uid)

    def __repr__(self) -> str:  # the admin token stays out of test logs
        return f"Emulator(base_url={self.base_url!r}, org_uid={self.org_uid!r})"


def find_executable() -> str:
    """The emulator to run: ``IRV_EMULATOR`` when set, else ``irv-emulator`` from ``PATH``."""
    configured = os.environ.get("IRV_EMULATOR")
    if configured:
        return configured
    found = shutil.which("irv-emulator")
    if found is None:
        raise EmulatorError(
            "no irv-emulator on PATH and IRV_EMULATOR is not set: unpack "
            "irv-emulator-v<version>-<os>-<arch>.tar.gz from the pulumi-irv release onto PATH"
        )
    return found


class RunningEmulator:
    """An emulator process; a context manager that stops it and removes its data on exit."""

    def __init__(self, emulator: Emulator, process: "subprocess.Popen[str]", stderr: list[str]) -> None:
        self.emulator = emulator
        self._process = process
        self._stderr = stderr

    @property
    def pid(self) -> int:
        """The emulator's process id."""
        return self._process.pid

    def stop(self, timeout: float = 10.0) -> None:
        """Asks the emulator to close (SIGTERM), kills it after ``timeout`` seconds, and removes its data."""
        try:
            if self._process.poll() is None:
                self._process.send_signal(signal.SIGTERM)
                try:
                    self._process.wait(timeout)
                except subprocess.TimeoutExpired:
                    self._process.kill()
                    self._process.wait()
        finally:
            shutil.rmtree(self.emulator.data_dir, ignore_errors=True)

    def __enter__(self) -> Emulator:
        return self.emulator

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.stop()


def _drain(stream: IO[str], into: Optional[list[str]]) -> None:
    for line in stream:
        if into is not None:
            into.append(line)


def start_emulator(
    executable: Optional[str] = None,
    fixtures: Optional[Union[str, "os.PathLike[str]"]] = None,
    args: Sequence[str] = (),
    timeout: float = 30.0,
) -> RunningEmulator:
    """Starts the emulator on a free loopback port with a fresh data directory and waits for its ready line.

    ``fixtures`` seeds the new database (the emulator's ``--fixtures``); ``args`` are more of its flags.

    Example::

        with start_emulator() as irv:
            print(irv.base_url)
    """
    exe = executable or find_executable()
    data_dir = Path(tempfile.mkdtemp(prefix="irv-emulator-"))
    command = [exe, "--host", "127.0.0.1", "--port", "0", "--data", str(data_dir / "irv.db")]
    if fixtures is not None:
        command += ["--fixtures", os.fspath(fixtures)]
    command += list(args)
    try:
        process = subprocess.Popen(
            command, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
        )
    except OSError as err:
        shutil.rmtree(data_dir, ignore_errors=True)
        raise EmulatorError(f"cannot run {exe}: {err}") from None
    assert process.stdout is not None and process.stderr is not None
    stderr: list[str] = []
    threading.Thread(target=_drain, args=(process.stderr, stderr), daemon=True).start()
    lines: list[str] = []
    got_line = threading.Event()

    def first_line() -> None:
        assert process.stdout is not None
        lines.append(process.stdout.readline())
        got_line.set()
        # Keep reading so that the emulator never blocks on a full pipe.
        _drain(process.stdout, None)

    threading.Thread(target=first_line, daemon=True).start()
    got_line.wait(timeout)
    line = lines[0] if lines else ""
    try:
        ready = json.loads(line)
        emulator = Emulator(
            base_url=ready["baseUrl"],
            auth_url=ready["authUrl"],
            issuer_url=ready["issuerUrl"],
            org_uid=ready["orgUid"],
            admin_token=ready["adminToken"],
            data_dir=data_dir,
        )
    except (ValueError, KeyError, TypeError):
        RunningEmulator(
            Emulator("", "", "", "", "", data_dir), process, stderr
        ).stop(timeout=2.0)
        why = "".join(stderr).strip() or (f"it printed {line!r}" if line else f"no ready line in {timeout}s")
        raise EmulatorError(f"{exe} did not start: {why}") from None
    return RunningEmulator(emulator, process, stderr)
