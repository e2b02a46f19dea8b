"""A receiver on loopback subscribed to the emulator's events, for a test that waits for a webhook."""

from __future__ import annotations

import json
import threading
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from types import TracebackType
from typing import Any, Optional, Type

__all__ = ["ReceivedEvent", "WebhookSink", "subscribe"]

_CONTEXT = {"specversion", "id", "type", "subject", "source", "time", "dataschema", "datacontenttype", "data"}


@dataclass(frozen=True)
class ReceivedEvent:
    """One CloudEvent the sink received (binary or structured mode)."""

    id: str
    type: str
    subject: str
    source: str
    extensions: dict[str, str]
    """The extension attributes: ``group``, ``bodytype``, ``audience``, …"""
    data: dict[str, Any]
    """The data: ``{"actor": {"subject"}, "body"}`` (no ``body`` when the published message redacts it all)."""
    raw_data: bytes = field(repr=False)
    """The data's bytes, as the token's ``webhook.digest`` covers them."""
    authorization: Optional[str] = field(repr=False)
    """The ``Authorization`` header: ``Bearer <token of the emulator's issuer>``."""

    @property
    def body(self) -> dict[str, Any]:
        """The data's body (the protojson of the message named by the ``bodytype`` extension), or ``{}``."""
        body = self.data.get("body")
        return body if isinstance(body, dict) else {}


def _parse(headers: Any, raw: bytes) -> Optional[ReceivedEvent]:
    authorization = headers.get("Authorization")
    if str(headers.get("Content-Type", "")).startswith("application/cloudevents+json"):
        try:
            doc = json.loads(raw)
        except ValueError:
            return None
        if not isinstance(doc, dict) or "id" not in doc or "type" not in doc:
            return None
        data = doc.get("data")
        return ReceivedEvent(
            id=str(doc["id"]),
            type=str(doc["type"]),
            subject=str(doc.get("subject", "")),
            source=str(doc.get("source", "")),
            extensions={k: str(v) for k, v in doc.items() if k not in _CONTEXT},
            data=data if isinstance(data, dict) else {},
            raw_data=json.dumps(data).encode(),
            authorization=authorization,
        )
    attributes = {
        name.lower()[3:]: urllib.parse.unquote(value)
        for name, value in headers.items()
        if name.lower().startswith("ce-")
    }
    if "id" not in attributes or "type" not in attributes:
        return None
    try:
        data = json.loads(raw) if raw else {}
    except ValueError:
        data = {}
    return ReceivedEvent(
        id=attributes["id"],
        type=attributes["type"],
        subject=attributes.get("subject", ""),
        source=attributes.get("source", ""),
        extensions={k: v for k, v in attributes.items() if k not in _CONTEXT},
        data=data if isinstance(data, dict) else {},
        raw_data=raw,
        authorization=authorization,
    )


class WebhookSink:
    """A receiver on loopback subscribed to a group's events; a context manager that unsubscribes and stops it.

    It records what arrives without checking the token: check that with your own receiver (docs/testing.md
    shows one in the shape of the published Go ``events/receiver``).
    """

    def __init__(self, base_url: str, admin_token: str, group: str) -> None:
        self._base_url = base_url
        self._admin_token = admin_token
        self._events: list[ReceivedEvent] = []
        self._arrived = threading.Condition()
        sink = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 (the http.server protocol)
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                event = _parse(self.headers, raw)
                self.send_response(400 if event is None else 200)
                self.send_header("Content-Length", "0")
                self.end_headers()
                if event is not None:
                    with sink._arrived:
                        sink._events.append(event)
                        sink._arrived.notify_all()

            def log_message(self, format: str, *args: Any) -> None:
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.url = f"http://127.0.0.1:{self._server.server_address[1]}/"
        """Where it listens."""
        try:
            made = self._call("POST", f"/events/v2beta1/subscriptions/{group}", {"sink": self.url})
        except Exception:
            self._server.shutdown()
            self._server.server_close()
            raise
        self.subscription_uid: str = str(made["uid"])
        """The uid of its subscription."""

    def _call(self, method: str, path: str, body: Optional[dict[str, str]] = None) -> dict[str, Any]:
        request = urllib.request.Request(
            self._base_url + path,
            method=method,
            data=None if body is None else json.dumps(body).encode(),
            headers={"Authorization": f"Bearer {self._admin_token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=10) as response:
                text = response.read()
        except urllib.error.HTTPError as err:
            raise RuntimeError(f"{method} {path}: HTTP {err.code}: {err.read().decode(errors='replace')}") from None
        answer = json.loads(text) if text else {}
        return answer if isinstance(answer, dict) else {}

    @property
    def events(self) -> list[ReceivedEvent]:
        """Every event received so far, in arrival order."""
        with self._arrived:
            return list(self._events)

    def wait_for(self, type: str, subject: Optional[str] = None, timeout: float = 10.0) -> ReceivedEvent:
        """The first event of ``type`` (and ``subject``, the object's uid, when given), waiting at most ``timeout``
        seconds; raises ``TimeoutError`` naming what did arrive.

        Example: ``sink.wait_for("dev.chainguard.api.iam.group.created.v1", subject=team_uid)``.
        """

        def find() -> Optional[ReceivedEvent]:
            return next((e for e in self._events if e.type == type and subject in (None, e.subject)), None)

        with self._arrived:
            found = self._arrived.wait_for(find, timeout)
            if found is None:
                got = ", ".join(f"{e.type} {e.subject}" for e in self._events) or "nothing"
                what = type if subject is None else f"{type} for {subject}"
                raise TimeoutError(f"no {what} within {timeout}s; received: {got}")
            return found

    def close(self) -> None:
        """Deletes the subscription (when the emulator still answers) and stops listening."""
        try:
            self._call("DELETE", f"/events/v2beta1/subscriptions/{self.subscription_uid}")
        except (OSError, RuntimeError):
            pass
        self._server.shutdown()
        self._server.server_close()

    def __enter__(self) -> "WebhookSink":
        return self

    def __exit__(
        self,
        exc_type: Optional[Type[BaseException]],
        exc: Optional[BaseException],
        tb: Optional[TracebackType],
    ) -> None:
        self.close()


def subscribe(base_url: str, admin_token: str, group: str) -> WebhookSink:
    """Starts a receiver on loopback and subscribes it to the events of ``group`` and every group below it."""
    return WebhookSink(base_url, admin_token, group)
