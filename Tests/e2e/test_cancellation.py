"""Long statements: progress notifications, cancellation (notifications/cancelled) and the timeout."""

from __future__ import annotations

from typing import Any

import anyio
import pytest
from mcp import types

from conftest import RUNAWAY_QUERY, SLOW_QUERY, assert_tool_error, error_code
from mcp_compat import server_notification

pytestmark = pytest.mark.anyio

#: How long the server may take to become free again after a cancellation. The runaway query
#: runs under --timeout-ms 60000: a statement that kept running would block far longer.
FREE_AGAIN_WITHIN = 5.0


async def test_progress_notifications_on_a_slow_query(server) -> None:
    updates: list[tuple[float, float, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        updates.append((anyio.current_time(), progress, message))

    notifications: list[types.ProgressNotification] = []

    async def on_message(message: Any) -> None:
        notification = server_notification(message)
        if isinstance(notification, types.ProgressNotification):
            notifications.append(notification)

    async with server(message_handler=on_message) as connection:
        started = anyio.current_time()
        result = await connection.call("query", {"sql": SLOW_QUERY}, progress_callback=on_progress)
        elapsed = anyio.current_time() - started
        with_token = len(notifications)
        quiet = await connection.call("query", {"sql": SLOW_QUERY})  # no progress token
    assert result.structuredContent["rows"] == [[6000000]]
    assert elapsed >= 0.5, f"the slow query took only {elapsed:.2f} s: make SLOW_QUERY slower"
    # One at the start, heartbeats every ~250 ms, one at the end (all before the response).
    assert len(updates) >= 3, updates
    assert len(updates) >= 2 + int(elapsed / 0.25) // 2, f"too few heartbeats in {elapsed:.2f} s: {updates}"
    progress_values = [progress for _, progress, _ in updates]
    assert progress_values == sorted(set(progress_values)), "progress strictly increases"
    assert all(message for _, _, message in updates)
    assert with_token == len(updates)
    assert quiet.structuredContent["rows"] == [[6000000]]
    assert len(notifications) == with_token, "no progress without a progress token"


async def test_cancelled_query_stops_and_frees_the_connection(server) -> None:
    """The request id is the one seen going out; notifications/cancelled is sent by the test with
    mcp 1.x, which does not send it when a call_tool scope is cancelled, and by the client with 2.x."""
    running = anyio.Event()
    unexpected: list[Any] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        if progress >= 1:  # a heartbeat: the statement has been running for ~250 ms
            running.set()

    async def on_message(message: Any) -> None:
        # A response to the cancelled request would arrive for an id nobody waits for any more.
        if isinstance(message, Exception):
            unexpected.append(message)

    outcome: dict[str, types.CallToolResult] = {}
    async with server("--timeout-ms", "60000", message_handler=on_message) as connection:

        async def runaway() -> None:
            outcome["result"] = await connection.call("query", {"sql": RUNAWAY_QUERY}, progress_callback=on_progress)

        async with anyio.create_task_group() as group:
            group.start_soon(runaway)
            with anyio.fail_after(10):
                await running.wait()
            request_id = connection.sent_requests("tools/call")[-1]["id"]
            await connection.cancel(request_id)
            # The server sends no response to a cancelled request: stop waiting for one.
            group.cancel_scope.cancel()

        cancelled_at = anyio.current_time()
        with anyio.fail_after(FREE_AGAIN_WITHIN):
            after = await connection.call("query", {"sql": "SELECT 1 AS one"})
        freed_after = anyio.current_time() - cancelled_at
        # A later round trip, to give any stray response to the cancelled request time to show.
        await connection.session.send_ping()

    assert "result" not in outcome
    assert after.structuredContent["rows"] == [[1]], "the server serves again after the cancellation"
    assert freed_after < FREE_AGAIN_WITHIN
    cancellations = [message for message in connection.sent if message.get("method") == "notifications/cancelled"]
    assert [message["params"]["requestId"] for message in cancellations] == [request_id]
    assert unexpected == [], f"the server answered the cancelled request: {unexpected}"


async def test_timeout_interrupts_a_runaway_query(server) -> None:
    async with server("--timeout-ms", "300") as connection:
        started = anyio.current_time()
        with anyio.fail_after(10):
            result = await connection.call("query", {"sql": RUNAWAY_QUERY})
        elapsed = anyio.current_time() - started
        after = await connection.call("query", {"sql": "SELECT 2 AS two"})
    text = assert_tool_error(result)
    assert "interrupted" in text.lower(), text
    assert error_code(result) == "timeout"
    assert 0.25 <= elapsed < 5, f"interrupted after {elapsed:.2f} s"
    assert after.structuredContent["rows"] == [[2]]
