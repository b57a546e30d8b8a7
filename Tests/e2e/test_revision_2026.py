"""MCP 2026-07-28 beside 2025-11-25, driven raw (JSON-RPC lines over stdio, POSTs over HTTP).

Every rule of the stateless revision the server implements has a test here: `server/discover`
before anything else, the version and capabilities in each request's `_meta` (-32602 without
them, -32022 for a version not served), `resultType`, caching hints, the HTTP headers checked
against the body (-32020), and confirmations as Multi Round-Trip Requests: accepted, declined,
replayed, altered, and stale once the rows changed.
"""

from __future__ import annotations

import base64
import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest

from conftest import sha256
from test_http import TOKEN, body_message, http_server
from test_raw_stdio import RawServer

MODERN = "2026-07-28"
META_VERSION = "io.modelcontextprotocol/protocolVersion"
META_CAPABILITIES = "io.modelcontextprotocol/clientCapabilities"
ELICITING = {"elicitation": {}}


def meta(capabilities: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {META_VERSION: MODERN, META_CAPABILITIES: capabilities if capabilities is not None else {}, **extra}


def modern_params(params: dict[str, Any] | None = None, capabilities: dict[str, Any] | None = None, **extra: Any) -> dict[str, Any]:
    return {**(params or {}), "_meta": meta(capabilities, **extra)}


class Stdio:
    """A raw stdio server spoken to with 2026-07-28 requests."""

    def __init__(self, binary: Path, database: Path, *args: str) -> None:
        self.server = RawServer(binary, database, *args)
        self.next_id = 0

    def call(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        self.next_id += 1
        request_id = self.next_id
        self.server.request(request_id, method, params)
        return self.server.wait_for(lambda message: message.get("id") == request_id and "method" not in message)

    def stop(self) -> None:
        self.server.stop()


@pytest.fixture
def stdio(dbai_bin: Path, chinook: Path):
    server = Stdio(dbai_bin, chinook, "--allow", "unrestricted")
    yield server
    server.stop()


def count(database: Path, sql: str) -> int:
    with sqlite3.connect(database) as connection:
        return connection.execute(sql).fetchone()[0]


# -- Negotiation ---------------------------------------------------------------------------------


def test_server_discover_first_then_stateless_requests(stdio: Stdio) -> None:
    discovered = stdio.call("server/discover", modern_params())
    result = discovered["result"]
    assert result["resultType"] == "complete"
    assert MODERN in result["supportedVersions"] and "2025-11-25" in result["supportedVersions"]
    assert {"tools", "resources", "prompts"} <= set(result["capabilities"])
    assert result["_meta"]["io.modelcontextprotocol/serverInfo"]["name"] == "dbai-mcp"
    assert result["ttlMs"] >= 0 and result["cacheScope"] in ("public", "private")
    assert "instructions" in result
    # No initialize: every request stands alone.
    tools = stdio.call("tools/list", modern_params())["result"]
    assert tools["resultType"] == "complete" and tools["ttlMs"] >= 0 and tools["cacheScope"] == result["cacheScope"]
    names = [tool["name"] for tool in tools["tools"]]
    assert names == [tool["name"] for tool in stdio.call("tools/list", modern_params())["result"]["tools"]], "deterministic order"
    answer = stdio.call("tools/call", modern_params({"name": "query", "arguments": {"sql": "SELECT count(*) AS n FROM Artist"}}))
    assert answer["result"]["resultType"] == "complete"
    assert answer["result"]["structuredContent"]["rows"] == [[275]]
    for method, params in [("resources/list", {}), ("resources/templates/list", {}), ("prompts/list", {})]:
        listed = stdio.call(method, modern_params(params))["result"]
        assert listed["resultType"] == "complete" and listed["ttlMs"] >= 0 and "cacheScope" in listed, method
    read = stdio.call("resources/read", modern_params({"uri": "sqlite://schema"}))["result"]
    assert read["resultType"] == "complete" and read["ttlMs"] >= 0 and "cacheScope" in read


def test_requests_without_the_version_or_capabilities_are_invalid_params(stdio: Stdio) -> None:
    no_version = stdio.call("tools/list", {"_meta": {META_CAPABILITIES: {}}})
    assert no_version["error"]["code"] == -32602
    assert META_VERSION in no_version["error"]["message"]
    no_capabilities = stdio.call("tools/list", {"_meta": {META_VERSION: MODERN}})
    assert no_capabilities["error"]["code"] == -32602
    assert META_CAPABILITIES in no_capabilities["error"]["message"]
    bad_level = stdio.call("tools/list", modern_params(**{"io.modelcontextprotocol/logLevel": "loud"}))
    assert bad_level["error"]["code"] == -32602
    # server/discover is a 2026-07-28 method: without its _meta it is not served.
    assert stdio.call("server/discover")["error"]["code"] == -32601


def test_a_version_not_served_is_32022_with_the_supported_list(stdio: Stdio) -> None:
    for version in ["1900-01-01", "2025-11-25"]:
        answer = stdio.call("server/discover", {"_meta": {META_VERSION: version, META_CAPABILITIES: {}}})
        error = answer["error"]
        assert error["code"] == -32022
        assert error["data"]["requested"] == version
        assert error["data"]["supported"][0] == MODERN and "2025-11-25" in error["data"]["supported"]


def test_removed_methods_are_not_found_under_the_new_revision(stdio: Stdio) -> None:
    assert stdio.call("ping", modern_params())["error"]["code"] == -32601
    assert stdio.call("logging/setLevel", modern_params({"level": "debug"}))["error"]["code"] == -32601
    assert stdio.call("initialize", modern_params({"protocolVersion": MODERN, "capabilities": {}}))["error"]["code"] == -32601


def test_both_eras_on_one_process(stdio: Stdio) -> None:
    stdio.server.initialize()
    legacy = stdio.call("tools/list")["result"]
    assert "resultType" not in legacy and "ttlMs" not in legacy
    modern = stdio.call("tools/list", modern_params())["result"]
    assert modern["resultType"] == "complete"
    assert [tool["name"] for tool in legacy["tools"]] == [tool["name"] for tool in modern["tools"]]


def test_unknown_resource_is_invalid_params(stdio: Stdio) -> None:
    answer = stdio.call("resources/read", modern_params({"uri": "sqlite://nothing-here"}))
    assert answer["error"]["code"] == -32602


def test_log_messages_only_when_the_request_asks(stdio: Stdio) -> None:
    stdio.server.seen.clear()
    stdio.call("tools/call", modern_params({"name": "query", "arguments": {"sql": "SELECT * FROM nowhere"}}))
    assert not [message for message in stdio.server.seen if message.get("method") == "notifications/message"]
    stdio.server.seen.clear()
    stdio.call("tools/call", modern_params(
        {"name": "query", "arguments": {"sql": "SELECT * FROM nowhere"}}, **{"io.modelcontextprotocol/logLevel": "warning"}))
    logs = [message for message in stdio.server.seen if message.get("method") == "notifications/message"]
    assert logs and logs[0]["params"]["level"] == "warning"


# -- Confirmations as Multi Round-Trip Requests --------------------------------------------------

DELETE = {"name": "delete", "arguments": {"table": "InvoiceLine", "where": {"InvoiceId": 1}}}


def first_round(stdio: Stdio, call: dict[str, Any] = DELETE) -> dict[str, Any]:
    result = stdio.call("tools/call", modern_params(call, ELICITING))["result"]
    assert result["resultType"] == "input_required", result
    request = result["inputRequests"]["confirm"]
    assert request["method"] == "elicitation/create"
    assert "DELETE" in request["params"]["message"] and "2 rows" in request["params"]["message"]
    assert request["params"]["requestedSchema"]["properties"]["confirm"]["type"] == "boolean"
    assert isinstance(result["requestState"], str) and result["requestState"]
    return result


def retry(stdio: Stdio, state: str, action: str = "accept", confirm: bool = True, call: dict[str, Any] = DELETE) -> dict[str, Any]:
    response: dict[str, Any] = {"action": action}
    if action == "accept":
        response["content"] = {"confirm": confirm}
    return stdio.call("tools/call", modern_params({**call, "inputResponses": {"confirm": response}, "requestState": state}, ELICITING))


def test_mrtr_confirmation_accepted_runs_the_write_once(stdio: Stdio, chinook: Path) -> None:
    state = first_round(stdio)["requestState"]
    assert count(chinook, "SELECT count(*) FROM InvoiceLine WHERE InvoiceId = 1") == 2, "nothing ran before the answer"
    done = retry(stdio, state)["result"]
    assert done["resultType"] == "complete" and not done.get("isError")
    assert done["structuredContent"]["rows_affected"] == 2
    assert count(chinook, "SELECT count(*) FROM InvoiceLine WHERE InvoiceId = 1") == 0


@pytest.mark.parametrize("action,confirm", [("decline", None), ("cancel", None), ("accept", False)])
def test_mrtr_declined_or_cancelled_changes_nothing(stdio: Stdio, chinook: Path, action: str, confirm: Any) -> None:
    before = sha256(chinook)
    state = first_round(stdio)["requestState"]
    answer = retry(stdio, state, action, bool(confirm))["result"]
    assert answer["isError"] is True and "nothing was changed" in answer["content"][0]["text"]
    assert sha256(chinook) == before
    # A declined state cannot be replayed as an acceptance.
    assert "error" in retry(stdio, state)
    assert sha256(chinook) == before


def test_mrtr_replayed_state_is_refused(stdio: Stdio, chinook: Path) -> None:
    state = first_round(stdio)["requestState"]
    assert retry(stdio, state)["result"]["structuredContent"]["rows_affected"] == 2
    # The same rows again (inserted back), the same state: refused, nothing written.
    with sqlite3.connect(chinook) as connection:
        connection.execute("INSERT INTO InvoiceLine VALUES (1, 1, 2, 0.99, 1), (2, 1, 4, 0.99, 1)")
    before = sha256(chinook)
    replay = retry(stdio, state)
    assert replay["error"]["code"] == -32602 and "already used" in replay["error"]["message"]
    assert sha256(chinook) == before


def test_mrtr_altered_or_foreign_state_is_refused(stdio: Stdio, chinook: Path) -> None:
    before = sha256(chinook)
    state = first_round(stdio)["requestState"]
    body, signature = state.split(".")
    payload = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))
    payload["exp"] += 3600
    forged = base64.urlsafe_b64encode(json.dumps(payload).encode()).decode().rstrip("=") + "." + signature
    for bad in [forged, state[:-2] + ("AA" if not state.endswith("AA") else "BB"), "not-a-state", ""]:
        answer = retry(stdio, bad)
        assert answer["error"]["code"] == -32602, bad
    # A state for another write: the same state with other arguments.
    other = {"name": "delete", "arguments": {"table": "InvoiceLine", "where": {"InvoiceId": 2}}}
    answer = retry(stdio, state, call=other)
    assert answer["error"]["code"] == -32602 and "different write" in answer["error"]["message"]
    assert sha256(chinook) == before
    # The genuine state still works afterwards.
    assert retry(stdio, state)["result"]["structuredContent"]["rows_affected"] == 2


def test_mrtr_stale_rows_get_a_new_preview_and_nothing_is_written(stdio: Stdio, chinook: Path) -> None:
    state = first_round(stdio)["requestState"]
    with sqlite3.connect(chinook) as connection:
        connection.execute("UPDATE InvoiceLine SET Quantity = 9 WHERE InvoiceLineId = 1")
    before = sha256(chinook)
    again = retry(stdio, state)["result"]
    assert again["resultType"] == "input_required"
    assert "changed" in again["inputRequests"]["confirm"]["params"]["message"]
    assert again["requestState"] != state
    assert sha256(chinook) == before
    assert retry(stdio, again["requestState"])["result"]["structuredContent"]["rows_affected"] == 2


def test_without_elicitation_a_stateless_client_gets_the_token(stdio: Stdio, chinook: Path) -> None:
    before = sha256(chinook)
    result = stdio.call("tools/call", modern_params(DELETE))["result"]
    assert result["resultType"] == "complete"
    assert result["structuredContent"]["confirmation_required"] is True
    token = result["structuredContent"]["confirmation_token"]
    assert sha256(chinook) == before
    confirmed = {"name": "delete", "arguments": {**DELETE["arguments"], "confirm": token}}
    done = stdio.call("tools/call", modern_params(confirmed))["result"]
    assert done["structuredContent"]["rows_affected"] == 2


# -- Streamable HTTP -----------------------------------------------------------------------------


@pytest.fixture
def served_http(dbai_bin: Path, chinook: Path):
    with http_server(dbai_bin, chinook, "--allow", "unrestricted") as server:
        yield server


def post(server, message: dict[str, Any], headers: dict[str, str] | None = None, drop: tuple[str, ...] = ()) -> tuple[int, dict[str, Any]]:
    params = message.get("params", {})
    sent = {"MCP-Protocol-Version": MODERN, "Mcp-Method": message["method"]}
    name = params.get("uri") if message["method"] == "resources/read" else params.get("name")
    if message["method"] in ("tools/call", "prompts/get", "resources/read") and name is not None:
        sent["Mcp-Name"] = name
    sent.update(headers or {})
    for header in drop:
        sent.pop(header, None)
    status, response_headers, body = server.raw().request("POST", {"jsonrpc": "2.0", **message}, headers=sent)
    return status, json.loads(body_message(response_headers, body))


def test_http_stateless_requests_need_no_session(served_http) -> None:
    status, discovered = post(served_http, {"id": 1, "method": "server/discover", "params": modern_params()})
    assert status == 200 and discovered["result"]["resultType"] == "complete"
    status, answer = post(served_http, {"id": 2, "method": "tools/call", "params": modern_params(
        {"name": "query", "arguments": {"sql": "SELECT count(*) AS n FROM Genre"}})})
    assert status == 200 and answer["result"]["structuredContent"]["rows"] == [[25]]
    # The same id from another client at the same time is another request.
    status, again = post(served_http, {"id": 2, "method": "tools/list", "params": modern_params()})
    assert status == 200 and again["result"]["tools"]


def test_http_without_version_meta_is_400(served_http) -> None:
    status, answer = post(served_http, {"id": 1, "method": "tools/list", "params": {}}, drop=("MCP-Protocol-Version",))
    assert status == 400 and answer["error"]["code"] == -32602
    status, answer = post(served_http, {"id": 1, "method": "tools/list", "params": {"_meta": {META_VERSION: MODERN}}})
    assert status == 400 and answer["error"]["code"] == -32602


def test_http_version_mismatch_is_400_32022(served_http) -> None:
    status, answer = post(
        served_http, {"id": 1, "method": "server/discover", "params": {"_meta": {META_VERSION: "2030-01-01", META_CAPABILITIES: {}}}},
        headers={"MCP-Protocol-Version": "2030-01-01"})
    assert status == 400 and answer["error"]["code"] == -32022
    assert MODERN in answer["error"]["data"]["supported"]


@pytest.mark.parametrize("headers,drop,fragment", [
    ({"Mcp-Method": "tools/list"}, (), "Mcp-Method"),
    ({}, ("Mcp-Method",), "Mcp-Method"),
    ({"Mcp-Name": "delete"}, (), "Mcp-Name"),
    ({}, ("Mcp-Name",), "Mcp-Name"),
    ({"MCP-Protocol-Version": "2025-11-25"}, (), "MCP-Protocol-Version"),
    ({}, ("MCP-Protocol-Version",), "MCP-Protocol-Version"),
    ({"Mcp-Name": "=?base64?%%%?="}, (), "Mcp-Name"),
])
def test_http_header_mismatch_is_400_32020(served_http, chinook: Path, headers, drop, fragment) -> None:
    before = sha256(chinook)
    status, answer = post(served_http, {"id": 1, "method": "tools/call", "params": modern_params(
        {"name": "query", "arguments": {"sql": "SELECT 1"}})}, headers=headers, drop=drop)
    assert status == 400 and answer["error"]["code"] == -32020 and fragment in answer["error"]["message"]
    assert sha256(chinook) == before


def test_http_base64_header_values_are_decoded(served_http) -> None:
    encoded = "=?base64?" + base64.b64encode(b"query").decode() + "?="
    status, answer = post(served_http, {"id": 1, "method": "tools/call", "params": modern_params(
        {"name": "query", "arguments": {"sql": "SELECT 1 AS one"}})}, headers={"Mcp-Name": encoded})
    assert status == 200 and answer["result"]["structuredContent"]["rows"] == [[1]]


def test_http_unknown_method_is_404(served_http) -> None:
    status, answer = post(served_http, {"id": 1, "method": "nope/nothing", "params": modern_params()})
    assert status == 404 and answer["error"]["code"] == -32601


def test_http_mrtr_confirmation(served_http, chinook: Path) -> None:
    status, first = post(served_http, {"id": 1, "method": "tools/call", "params": modern_params(DELETE, ELICITING)})
    assert status == 200 and first["result"]["resultType"] == "input_required"
    state = first["result"]["requestState"]
    retried = {**DELETE, "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": True}}}, "requestState": state}
    status, done = post(served_http, {"id": 2, "method": "tools/call", "params": modern_params(retried, ELICITING)})
    assert status == 200 and done["result"]["structuredContent"]["rows_affected"] == 2
    status, replay = post(served_http, {"id": 3, "method": "tools/call", "params": modern_params(retried, ELICITING)})
    assert replay["error"]["code"] == -32602
    assert count(chinook, "SELECT count(*) FROM InvoiceLine WHERE InvoiceId = 1") == 0


def test_http_sessions_still_serve_2025_11_25(served_http) -> None:
    raw = served_http.raw()
    initialized = raw.initialize()
    assert initialized["result"]["protocolVersion"] == "2025-11-25"
    answer = raw.call(1, "query", {"sql": "SELECT 1 AS one"})
    assert answer["result"]["structuredContent"]["rows"] == [[1]] and "resultType" not in answer["result"]


def test_the_token_inside_a_request_state_is_no_confirm_argument(stdio: Stdio, chinook: Path) -> None:
    """The state is opaque, not secret: a model that reads it must not confirm the write itself."""
    before = sha256(chinook)
    state = first_round(stdio)["requestState"]
    body = state.split(".")[0]
    token = json.loads(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)))["token"]
    confirmed = {"name": "delete", "arguments": {**DELETE["arguments"], "confirm": token}}
    answer = stdio.call("tools/call", modern_params(confirmed))["result"]
    assert answer["isError"] is True
    assert sha256(chinook) == before


def test_url_only_elicitation_gets_the_token_not_a_form(stdio: Stdio) -> None:
    result = stdio.call("tools/call", modern_params(DELETE, {"elicitation": {"url": {}}}))["result"]
    assert result["resultType"] == "complete" and result["structuredContent"]["confirmation_required"] is True


def test_http_request_without_session_or_meta_is_answered_with_its_id(served_http) -> None:
    status, answer = post(served_http, {"id": 41, "method": "tools/list", "params": {}}, drop=("MCP-Protocol-Version",))
    assert status == 400 and answer["id"] == 41 and answer["error"]["code"] == -32602


# -- ask: a write the model wrote, confirmed as a round trip -------------------------------------

from test_ask import FakeOpenAI, fake_openai  # noqa: E402,F401 (the fixture is used by name)

ASK_DELETE = "DELETE FROM InvoiceLine WHERE InvoiceId = 1"


@pytest.fixture
def asking(dbai_bin: Path, chinook: Path, fake_openai: str):
    FakeOpenAI.sql = ASK_DELETE
    server = Stdio(dbai_bin, chinook, "--allow", "unrestricted", "--llm", "openai-compatible:m", "--llm-base-url", fake_openai)
    yield server
    server.stop()


ASK = {"name": "ask", "arguments": {"question": "Remove the lines of invoice 1"}}


def test_ask_model_write_is_a_round_trip_and_the_model_is_not_asked_again(asking: Stdio, chinook: Path) -> None:
    first = asking.call("tools/call", modern_params(ASK, ELICITING))["result"]
    assert first["resultType"] == "input_required"
    message = first["inputRequests"]["confirm"]["params"]["message"]
    assert "language model" in message and ASK_DELETE in message and "2 rows" in message
    assert count(chinook, "SELECT count(*) FROM InvoiceLine WHERE InvoiceId = 1") == 2
    FakeOpenAI.sql = "DELETE FROM InvoiceLine"  # a different statement, should the model be asked again
    model_calls = len(FakeOpenAI.requests)
    retried = {**ASK, "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": True}}},
               "requestState": first["requestState"]}
    done = asking.call("tools/call", modern_params(retried, ELICITING))["result"]
    assert done["resultType"] == "complete" and not done.get("isError"), done
    assert done["structuredContent"]["sql"] == ASK_DELETE and done["structuredContent"]["rows_affected"] == 2
    assert len(FakeOpenAI.requests) == model_calls, "the retry ran the signed statement, not a new one"
    assert count(chinook, "SELECT count(*) FROM InvoiceLine") == 2240 - 2
    # Replayed: refused, nothing more written.
    assert asking.call("tools/call", modern_params(retried, ELICITING))["error"]["code"] == -32602
    assert count(chinook, "SELECT count(*) FROM InvoiceLine") == 2240 - 2


def test_ask_model_write_declined_or_for_another_question_changes_nothing(asking: Stdio, chinook: Path) -> None:
    before = sha256(chinook)
    state = asking.call("tools/call", modern_params(ASK, ELICITING))["result"]["requestState"]
    other = {"name": "ask", "arguments": {"question": "Something else"}, "requestState": state,
             "inputResponses": {"confirm": {"action": "accept", "content": {"confirm": True}}}}
    assert asking.call("tools/call", modern_params(other, ELICITING))["error"]["code"] == -32602
    declined = {**ASK, "requestState": state, "inputResponses": {"confirm": {"action": "decline"}}}
    answer = asking.call("tools/call", modern_params(declined, ELICITING))["result"]
    assert answer["isError"] is True
    assert sha256(chinook) == before


def test_ask_model_write_without_elicitation_is_refused_with_the_sql(asking: Stdio, chinook: Path) -> None:
    before = sha256(chinook)
    answer = asking.call("tools/call", modern_params(ASK))["result"]
    assert answer["isError"] is True and ASK_DELETE in answer["content"][0]["text"]
    assert sha256(chinook) == before
