"""Test helpers for pulumi-irv programs: the IRV emulator as a pytest fixture (see docs/testing.md)."""

from .emulator import Emulator, EmulatorError, RunningEmulator, find_executable, start_emulator
from .webhooks import ReceivedEvent, WebhookSink

__all__ = [
    "Emulator",
    "EmulatorError",
    "ReceivedEvent",
    "RunningEmulator",
    "WebhookSink",
    "find_executable",
    "start_emulator",
]
