"""What differs between the official MCP Python client 1.x and 2.x, bridged in one place.

The end-to-end suite runs under both majors (Scripts/test: .venv/e2e-mcp1 and .venv/e2e-mcp2),
and checks the same server behaviour under each. Only the client's API differs:

- the exception of an error response is `McpError` in 1.x, `MCPError` in 2.x: both are
  `McpError` here, with `.error.code` and `.error.message` in either;
- timeouts are `timedelta`s in 1.x and seconds (float) in 2.x: `timeout(seconds)`;
- a notification is wrapped in `types.ClientNotification(...)` in 1.x; in 2.x that name is a
  plain union and the notification is sent as it is: `cancelled_notification(...)`;
- a resource URI is passed as a `str` (2.x refuses pydantic's `AnyUrl`; 1.x converts a `str`);
- a server notification reaches a `message_handler` wrapped in `types.ServerNotification` (its
  `.root`) in 1.x, and as it is in 2.x: `server_notification(message)`;
- 2.x sends `notifications/cancelled` itself when the scope of a request is cancelled; 1.x does
  not, so a test sends it by hand there: `CLIENT_SENDS_CANCELLED`;
- the Streamable HTTP client `streamable_http_client(url, http_client=…)` yields a third value
  (the session id getter) in 1.x, two streams in 2.x: `streamable_http(url, headers)`;
- result fields are attributes named as on the wire in 1.x (`result.structuredContent`,
  `tool.inputSchema`, `completion.hasMore`) and snake_case in 2.x (`structured_content`, …):
  `install_wire_name_accessors()` gives the 2.x models read-only properties under the wire
  names, so a test reads the same names under both. Models are still built with the wire names
  (`stopReason=…`), which both majors accept.
"""

from __future__ import annotations

import inspect
from contextlib import asynccontextmanager
from datetime import timedelta
from importlib.metadata import version
from typing import Any, AsyncIterator

from mcp import types

#: The major version of the installed `mcp` package.
MCP_MAJOR = int(version("mcp").split(".")[0])

try:  # 1.x
    from mcp.shared.exceptions import McpError
except ImportError:  # 2.x
    from mcp.shared.exceptions import MCPError as McpError  # type: ignore[assignment]

__all__ = [
    "CLIENT_SENDS_CANCELLED", "MCP_MAJOR", "McpError", "cancelled_notification", "install_wire_name_accessors",
    "server_notification", "streamable_http", "timeout",
]  # fmt: skip

#: Whether the client itself sends notifications/cancelled when a request's scope is cancelled.
CLIENT_SENDS_CANCELLED = MCP_MAJOR >= 2


def timeout(seconds: float) -> Any:
    """A request timeout as the installed client takes it."""
    return timedelta(seconds=seconds) if MCP_MAJOR < 2 else float(seconds)


def cancelled_notification(request_id: int | str, reason: str) -> Any:
    """`notifications/cancelled` for one request, ready for `ClientSession.send_notification`."""
    notification = types.CancelledNotification(
        params=types.CancelledNotificationParams(requestId=request_id, reason=reason)
    )
    return types.ClientNotification(notification) if MCP_MAJOR < 2 else notification


def server_notification(message: Any) -> Any | None:
    """The notification a `message_handler` received, or None for a request or an exception."""
    if MCP_MAJOR < 2:
        return message.root if isinstance(message, types.ServerNotification) else None
    notification_types = tuple(getattr(types.ServerNotification, "__args__", ()))
    return message if notification_types and isinstance(message, notification_types) else None


def install_wire_name_accessors() -> None:
    """Under 2.x, adds a read-only property named as on the wire (the field's alias, e.g.
    `structuredContent`) to every model of `mcp.types` whose attribute is named otherwise.
    Does nothing under 1.x, where the attributes already carry the wire names."""
    if MCP_MAJOR < 2:
        return
    for model in vars(types).values():
        if not inspect.isclass(model) or not hasattr(model, "model_fields"):
            continue
        for name, field in model.model_fields.items():
            alias = field.alias
            if alias and alias != name and alias.isidentifier() and not hasattr(model, alias):
                setattr(model, alias, property(lambda self, name=name: getattr(self, name)))


@asynccontextmanager
async def streamable_http(url: str, headers: dict[str, str] | None = None, auth: Any = None) -> AsyncIterator[tuple[Any, Any]]:
    """The official Streamable HTTP client's (read, write) streams, with headers on every request
    and, when given, the client's own OAuth (`auth`, an `OAuthClientProvider`)."""
    from mcp.client.streamable_http import streamable_http_client
    from mcp.shared._httpx_utils import create_mcp_http_client

    async with create_mcp_http_client(headers=headers, auth=auth) as client:
        async with streamable_http_client(url, http_client=client) as streams:
            yield streams[0], streams[1]
