"""`dbai-mcp --http --oauth-issuer`: an OAuth 2.1 resource server in front of a real authorization
server (authlib, started by the tests: oauth_as.py): the official MCP client's own sign-in from
the 401 (PKCE, the `resource` parameter, refresh), key rotation mid-run, forged and misdirected
tokens refused with nothing run, scopes that narrow `--allow` with the 403 step-up, and the
caller's identity in the audit log."""

from __future__ import annotations

import json
import socket
import sqlite3
import time
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import anyio
import pytest

from conftest import assert_tool_ok, run_binary, session_over
from mcp_compat import streamable_http
from oauth_fixture import AuthorizationServerHandle, authorization_server, decode_unverified, headless_oauth
from test_ask import FakeOpenAI, fake_openai  # noqa: F401 (the fixture is used by name)
from test_http import HTTPServer, RawHTTP, body_message, http_server

pytestmark = pytest.mark.anyio

STATELESS = "2026-07-28"


def free_port() -> int:
    """A port free now on loopback (the public URL must be known before the server starts)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextmanager
def resource_server(
    binary: Path, database: Path, issuer: str, *args: str, env: dict[str, str] | None = None
) -> Iterator[HTTPServer]:
    """`dbai-mcp --http 127.0.0.1:PORT --oauth-issuer ISSUER --public-url http://127.0.0.1:PORT/mcp ARGS…`."""
    port = free_port()
    with http_server(
        binary, database, "--oauth-issuer", issuer, "--public-url", f"http://127.0.0.1:{port}/mcp", *args,
        token=None, address=f"127.0.0.1:{port}", env_extra=env,
    ) as server:
        yield server


def stateless(method: str, params: dict[str, Any], request_id: int = 1) -> dict[str, Any]:
    """A 2026-07-28 request: everything in itself."""
    meta = {"io.modelcontextprotocol/protocolVersion": STATELESS, "io.modelcontextprotocol/clientCapabilities": {}}
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": {**params, "_meta": meta}}


def post(server: HTTPServer, token: str | None, method: str, params: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
    """One stateless POST with its headers."""
    headers = {"MCP-Protocol-Version": STATELESS, "Mcp-Method": method}
    if "name" in params:
        headers["Mcp-Name"] = params["name"]
    return server.raw().request("POST", stateless(method, params), headers=headers, token=token)


def call(server: HTTPServer, token: str | None, tool: str, arguments: dict[str, Any]) -> tuple[int, dict[str, str], bytes]:
    return post(server, token, "tools/call", {"name": tool, "arguments": arguments})


def result(response: tuple[int, dict[str, str], bytes]) -> dict[str, Any]:
    status, headers, body = response
    assert status == 200, body
    message = json.loads(body_message(headers, body))
    assert "result" in message, message
    return message["result"]


def genres(database: Path) -> int:
    with sqlite3.connect(database) as connection:
        return connection.execute("SELECT count(*) FROM Genre").fetchone()[0]


@pytest.fixture
def issuer(tmp_path: Path) -> Iterator[AuthorizationServerHandle]:
    with authorization_server(tmp_path / "as") as handle:
        yield handle


def token_for(issuer: AuthorizationServerHandle, server: HTTPServer, scope: str, **claims: Any) -> str:
    """A real token of the authorization server (client credentials), for this server."""
    client_id, secret = issuer.register_client(scope="dbai:read dbai:write dbai:delete dbai:unmask")
    return issuer.client_credentials_token(client_id, secret, scope=scope, resource=server.url)


# MARK: - The official client's own OAuth


async def test_the_official_client_signs_in_from_the_401_with_pkce_and_the_resource_then_refreshes(
    dbai_bin: Path, chinook: Path, issuer: AuthorizationServerHandle
) -> None:
    with resource_server(dbai_bin, chinook, issuer.issuer, "--allow", "standard") as server:
        auth = headless_oauth(server.url, issuer_hint=issuer.issuer)
        async with streamable_http(server.url, auth=auth) as (read_stream, write_stream):
            async with session_over(read_stream, write_stream) as connection:
                answer = await connection.session.call_tool("query", {"sql": "SELECT count(*) AS n FROM Genre"})
                assert_tool_ok(answer)
                assert answer.structuredContent["rows"] == [[25]]
                # The client found the authorization server from the 401 and signed in with PKCE
                # for this resource (RFC 8707).
                request = auth.authorization_requests[0]
                assert request["code_challenge_method"] == "S256" and request["code_challenge"]
                assert request["resource"] == server.url
                header, claims = decode_unverified(auth.access_token)
                assert header["typ"] == "at+jwt"
                assert claims["aud"] in (server.url, [server.url])
                assert claims["sub"] == "alice"
                # Refresh: the next call goes with a new access token from the refresh token.
                first = auth.access_token
                refreshes = issuer.stats()["token_requests"]
                auth.expire_access_token()
                assert_tool_ok(await connection.session.call_tool("query", {"sql": "SELECT 1"}))
                assert auth.access_token != first
                assert issuer.stats()["token_requests"] == refreshes + 1
                assert len(auth.authorization_requests) == 1
    assert first not in server.stderr() and auth.access_token not in server.stderr()


async def test_the_official_client_steps_up_after_403_insufficient_scope(
    dbai_bin: Path, chinook: Path, issuer: AuthorizationServerHandle
) -> None:
    # The user first consents to reading only.
    issuer.configure(consent_scopes="dbai:read")
    with resource_server(dbai_bin, chinook, issuer.issuer, "--allow", "standard") as server:
        auth = headless_oauth(server.url, issuer_hint=issuer.issuer)
        async with streamable_http(server.url, auth=auth) as (read_stream, write_stream):
            async with session_over(read_stream, write_stream) as connection:
                listed = {tool.name for tool in (await connection.session.list_tools()).tools}
                assert "query" in listed and "insert" not in listed
                assert decode_unverified(auth.access_token)[1]["scope"] == "dbai:read"
                before = genres(chinook)
                # Then to writing too: the 403 makes the client sign in again for dbai:write.
                issuer.configure(consent_scopes="dbai:read dbai:write")
                inserted = await connection.session.call_tool("insert", {"table": "Genre", "rows": [{"Name": "Step-up"}]})
                assert_tool_ok(inserted)
                assert genres(chinook) == before + 1
                assert "dbai:write" in decode_unverified(auth.access_token)[1]["scope"].split()
                assert len(auth.authorization_requests) == 2
                assert "dbai:write" in auth.authorization_requests[1]["scope"].split()


# MARK: - Metadata and challenges


def test_the_metadata_names_the_resource_the_issuer_and_the_scopes(
    dbai_bin: Path, chinook: Path, issuer: AuthorizationServerHandle
) -> None:
    with resource_server(dbai_bin, chinook, issuer.issuer, "--allow", "unrestricted") as server:
        raw = server.raw()
        for path in ("/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"):
            status, headers, body = raw.request("GET", path=path, token=None)
            assert status == 200 and headers["access-control-allow-origin"] == "*"
            assert json.loads(body) == {
                "resource": server.url, "authorization_servers": [issuer.issuer],
                "scopes_supported": ["dbai:read", "dbai:write", "dbai:delete"],
                "bearer_methods_supported": ["header"], "resource_name": "dbai-mcp",
            }
        status, headers, _ = call(server, None, "query", {"sql": "SELECT 1"})
        assert status == 401
        assert headers["www-authenticate"] == (
            f'Bearer resource_metadata="http://127.0.0.1:{server.port}/.well-known/oauth-protected-resource/mcp", '
            'scope="dbai:read dbai:write dbai:delete"')


def test_discovery_falls_back_to_openid_connect_under_an_issuer_path(
    dbai_bin: Path, chinook: Path, tmp_path: Path
) -> None:
    with authorization_server(tmp_path / "as", issuer_path="/realms/team", discovery="oidc") as realm:
        with resource_server(dbai_bin, chinook, realm.issuer) as server:
            token = token_for(realm, server, "dbai:read")
            assert result(call(server, token, "query", {"sql": "SELECT 1 AS one"}))["structuredContent"]["rows"] == [[1]]
            stats = realm.stats()
            assert stats["oidc_metadata_requests"] >= 1


# MARK: - Keys


def test_keys_rotated_during_a_run_are_fetched_again_at_most_once_per_ten_seconds(
    dbai_bin: Path, chinook: Path, issuer: AuthorizationServerHandle
) -> None:
    with resource_server(dbai_bin, chinook, issuer.issuer) as server:
        assert result(call(server, token_for(issuer, server, "dbai:read"), "query", {"sql": "SELECT 1"}))
        fetched = issuer.stats()["jwks_requests"]
        # A new key, the old one retired: the first token it signs makes the server fetch the set.
        kid = issuer.rotate("ES256", retire_old=True)
        token = token_for(issuer, server, "dbai:read")
        assert decode_unverified(token)[0] == {"alg": "ES256", "typ": "at+jwt", "kid": kid}
        assert result(call(server, token, "query", {"sql": "SELECT 1"}))
        assert issuer.stats()["jwks_requests"] == fetched + 1
        # Unknown kids right after (forged ones, or a second rotation) do not make it fetch again
        # within ten seconds: the authorization server cannot be hammered through this server.
        issuer.rotate("EdDSA", retire_old=False)
        rotated_again = token_for(issuer, server, "dbai:read")
        for _ in range(3):
            assert call(server, rotated_again, "query", {"sql": "SELECT 1"})[0] == 401
        assert issuer.stats()["jwks_requests"] == fetched + 1
        time.sleep(10.5)
        assert result(call(server, rotated_again, "query", {"sql": "SELECT 2"}))
        assert issuer.stats()["jwks_requests"] == fetched + 2
        # Tokens of keys already known cost the authorization server nothing.
        assert result(call(server, token, "query", {"sql": "SELECT 3"}))
        assert issuer.stats()["jwks_requests"] == fetched + 2


# MARK: - Refusals


def forged_tokens(issuer: AuthorizationServerHandle, server: HTTPServer) -> dict[str, str]:
    """Tokens that must not be accepted, each with every scope."""
    scope = "dbai:read dbai:write dbai:delete dbai:unmask"
    good = issuer.claims(server.url, scope=scope)
    public = {name: value for name, value in issuer.signing_key().items() if name in ("kty", "n", "e", "crv", "x", "y", "kid")}
    from joserfc.jwk import OctKey

    hmac_key = OctKey.import_key(json.dumps(public, sort_keys=True).encode())
    valid = issuer.forge(good)
    header, payload, signature = valid.split(".")
    return {
        # The positive control: forged with the same key and claims, unchanged.
        "valid": valid,
        "expired": issuer.forge(issuer.claims(server.url, scope=scope, exp=good["iat"] - 3600, iat=good["iat"] - 7200, nbf=None)),
        "another audience": issuer.forge(issuer.claims("http://127.0.0.1:1/mcp", scope=scope)),
        "another issuer": issuer.forge({**good, "iss": "http://127.0.0.1:1/evil"}),
        "alg none": issuer.forge(good, header={"alg": "none"}),
        "HS256 keyed with the public key": issuer.forge(good, header={"alg": "HS256"}, key=hmac_key),
        "bad signature": f"{header}.{payload}.{signature[:-4]}AAAA",
        "wrong typ": issuer.forge(good, header={"typ": "JWT"}),
        "not yet valid": issuer.forge({**good, "nbf": good["iat"] + 3600}),
        "no subject": issuer.forge({name: value for name, value in good.items() if name != "sub"}),
    }


def test_forged_expired_and_misdirected_tokens_are_refused_and_nothing_runs(
    dbai_bin: Path, chinook: Path, tmp_path: Path, issuer: AuthorizationServerHandle
) -> None:
    log = tmp_path / "audit.jsonl"
    with resource_server(dbai_bin, chinook, issuer.issuer, "--allow", "unrestricted", "--audit-log", str(log)) as server:
        before = genres(chinook)
        tokens = forged_tokens(issuer, server)
        valid = tokens.pop("valid")
        assert result(call(server, valid, "query", {"sql": "SELECT 1"})), "the forging itself works"
        for name, token in tokens.items():
            status, headers, body = call(server, token, "insert", {"table": "Genre", "rows": [{"Name": name}]})
            assert status == 401, (name, body)
            assert headers["www-authenticate"].startswith('Bearer error="invalid_token"'), name
            assert "resource_metadata=" in headers["www-authenticate"]
        assert genres(chinook) == before
        # The genuine token, for contrast, writes.
        assert result(call(server, token_for(issuer, server, "dbai:read dbai:write"), "insert", {"table": "Genre", "rows": [{"Name": "Real"}]}))
        assert genres(chinook) == before + 1
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    assert {entry["outcome"] for entry in entries} <= {"pending", "committed"}
    assert all(entry["client"]["caller"]["sub"] for entry in entries)


# MARK: - Scopes


def test_scopes_narrow_the_allowlist_with_a_403_step_up_and_nothing_run(
    dbai_bin: Path, chinook: Path, issuer: AuthorizationServerHandle
) -> None:
    with resource_server(dbai_bin, chinook, issuer.issuer, "--allow", "unrestricted", "--no-confirm") as server:
        reader = token_for(issuer, server, "dbai:read")
        tools = {tool["name"] for tool in result(post(server, reader, "tools/list", {}))["tools"]}
        assert {"query", "describe_schema", "aggregate"} <= tools
        # The instructions tell the caller what their token leaves them.
        instructions = result(post(server, reader, "server/discover", {}))["instructions"]
        assert "Allowed operations: readonly (your access token's scopes narrow the server's unrestricted)." in instructions
        assert "Destructive writes need" not in instructions
        assert not tools & {"insert", "update", "delete"}
        before = genres(chinook)
        status, headers, body = call(server, reader, "delete", {"table": "Genre", "where": {"GenreId": 1}})
        assert status == 403, body
        assert headers["www-authenticate"].startswith('Bearer error="insufficient_scope"')
        assert headers["www-authenticate"].endswith('scope="dbai:read dbai:delete"')
        assert genres(chinook) == before
        # A write token without delete: update yes, delete no.
        writer = token_for(issuer, server, "dbai:read dbai:write")
        tools = {tool["name"] for tool in result(post(server, writer, "tools/list", {}))["tools"]}
        assert {"insert", "update"} <= tools and "delete" not in tools
        assert call(server, writer, "delete", {"table": "Genre", "where": {"GenreId": 1}})[0] == 403
        # The step-up: a token with the scope.
        assert result(call(server, writer, "insert", {"table": "Genre", "rows": [{"Name": "Gone"}]}))
        deleter = token_for(issuer, server, "dbai:read dbai:delete")
        gone = result(call(server, deleter, "delete", {"table": "Genre", "where": {"Name": "Gone"}}))
        assert not gone.get("isError"), gone
        assert genres(chinook) == before
        # A token without dbai:read reads nothing, resources included.
        assert call(server, token_for(issuer, server, "dbai:write"), "query", {"sql": "SELECT 1"})[0] == 403
        assert post(server, token_for(issuer, server, "dbai:write"), "resources/list", {})[0] == 403


def test_scopes_never_widen_the_allowlist(dbai_bin: Path, chinook: Path, issuer: AuthorizationServerHandle) -> None:
    with resource_server(dbai_bin, chinook, issuer.issuer, "--allow", "readonly") as server:
        everything = token_for(issuer, server, "dbai:read dbai:write dbai:delete dbai:unmask")
        tools = {tool["name"] for tool in result(post(server, everything, "tools/list", {}))["tools"]}
        assert not tools & {"insert", "update", "delete"}
        refused = result(call(server, everything, "query", {"sql": "DELETE FROM Genre"}))
        assert refused["isError"]
        # A tool --allow does not enable is the server's own refusal, never a step-up to a
        # scope it would not grant.
        for token in (everything, token_for(issuer, server, "dbai:read")):
            status, headers, body = call(server, token, "insert", {"table": "Genre", "rows": [{"Name": "x"}]})
            assert status == 200 and "www-authenticate" not in headers, body
            assert "The tool insert is not enabled" in json.loads(body_message(headers, body))["error"]["message"]


def test_the_static_token_and_oauth_together(dbai_bin: Path, chinook: Path, issuer: AuthorizationServerHandle) -> None:
    port = free_port()
    with http_server(
        dbai_bin, chinook, "--allow", "standard", "--oauth-issuer", issuer.issuer, "--public-url", f"http://127.0.0.1:{port}/mcp",
        address=f"127.0.0.1:{port}",
    ) as server:
        # The static token is served as before, unnarrowed.
        static = server.raw()
        static.initialize()
        assert "insert" in {tool["name"] for tool in json.loads(body_message(*static.request("POST", {
            "jsonrpc": "2.0", "id": 1, "method": "tools/list"})[1:]))["result"]["tools"]}
        # Any other bearer must be an access token.
        assert call(server, "not-the-static-token", "query", {"sql": "SELECT 1"})[0] == 401
        reader = token_for(issuer, server, "dbai:read")
        assert result(call(server, reader, "query", {"sql": "SELECT 1"}))
        # Sessions do not cross: an OAuth caller cannot use the static token's session, GET or DELETE it.
        for method, body in (("POST", {"jsonrpc": "2.0", "id": 2, "method": "tools/list"}), ("GET", None), ("DELETE", None)):
            status, _, _ = static.request(method, body, token=reader, headers={"Accept": "text/event-stream"} if method == "GET" else None)
            assert status == 404, method


# MARK: - Who did what


def test_audit_lines_name_the_caller_and_never_the_token(
    dbai_bin: Path, chinook: Path, tmp_path: Path, issuer: AuthorizationServerHandle
) -> None:
    log = tmp_path / "audit.jsonl"
    with resource_server(dbai_bin, chinook, issuer.issuer, "--allow", "standard", "--audit-log", str(log)) as server:
        client_id, secret = issuer.register_client(scope="dbai:read dbai:write")
        token = issuer.client_credentials_token(client_id, secret, scope="dbai:read dbai:write", resource=server.url)
        assert result(call(server, token, "insert", {"table": "Genre", "rows": [{"Name": "Audited"}]}))
        # A session of the 2025-11-25 revision is bound to its caller too.
        session = RawHTTP(server.host, server.port)
        session.initialize(token=token)
        status, _, _ = session.request("POST", {"jsonrpc": "2.0", "id": 5, "method": "tools/list"},
                                       token=token_for(issuer, server, "dbai:read"))
        assert status == 404, "another client (another subject) cannot use the session"
    text = log.read_text()
    assert token not in text
    final = [json.loads(line) for line in text.splitlines() if json.loads(line)["outcome"] != "pending"]
    assert final[0]["client"]["caller"] == {
        "iss": issuer.issuer, "sub": client_id, "client_id": client_id, "scopes": ["dbai:read", "dbai:write"]}
    assert "token_sha256" not in final[0]["client"]


def test_two_callers_writes_are_told_apart_and_undone_only_while_their_rows_hold(
    dbai_bin: Path, chinook: Path, tmp_path: Path, issuer: AuthorizationServerHandle
) -> None:
    log = tmp_path / "audit.jsonl"
    with resource_server(dbai_bin, chinook, issuer.issuer, "--allow", "standard", "--audit-log", str(log)) as server:
        alice = issuer.register_client(scope="dbai:read dbai:write")
        bob = issuer.register_client(scope="dbai:read dbai:write")
        for (client_id, secret), name in ((alice, "Alice's"), (bob, "Bob's")):
            token = issuer.client_credentials_token(client_id, secret, scope="dbai:read dbai:write", resource=server.url)
            done = result(call(server, token, "update", {"table": "Genre", "set": {"Name": name}, "where": {"GenreId": 1}}))
            assert not done.get("isError"), done
    entries = [json.loads(line) for line in log.read_text().splitlines()]
    first, second = (entry for entry in entries if entry["outcome"] == "committed")
    assert (first["client"]["caller"]["sub"], second["client"]["caller"]["sub"]) == (alice[0], bob[0])
    records = {entry["id"]: entry for entry in entries if entry["outcome"] == "pending"}
    assert records[first["id"]]["changes"][0]["before"]["Name"] == "Rock"
    assert records[first["id"]]["changes"][0]["after"]["Name"] == "Alice's"
    assert records[second["id"]]["changes"][0]["before"]["Name"] == "Alice's"

    shown = run_binary(dbai_bin, "audit", "show", str(log), "--id", second["id"])
    assert f"sub {bob[0]} of {issuer.issuer}" in shown.stdout and '"Alice\'s" → "Bob\'s"' in shown.stdout
    # Alice's write is not undone over Bob's: her row changed since.
    undo = ["audit", "undo", str(log), "--db", str(chinook), "--allow", "standard", "--apply", "--id"]
    refused = run_binary(dbai_bin, *undo, first["id"])
    assert refused.returncode == 1 and "changed since the write" in refused.stderr
    assert run_binary(dbai_bin, *undo, second["id"]).returncode == 0
    assert run_binary(dbai_bin, *undo, first["id"]).returncode == 0
    with sqlite3.connect(chinook) as check:
        assert check.execute("SELECT Name FROM Genre WHERE GenreId = 1").fetchone() == ("Rock",)
    check.close()


# MARK: - Opaque tokens


def test_opaque_tokens_are_introspected(dbai_bin: Path, chinook: Path, issuer: AuthorizationServerHandle) -> None:
    issuer.configure(opaque_tokens=True)
    credentials = ":".join(issuer.introspection_client)
    with resource_server(
        dbai_bin, chinook, issuer.issuer, "--oauth-introspection-client-env", "DBAI_INTROSPECTION",
        env={"DBAI_INTROSPECTION": credentials},
    ) as server:
        token = token_for(issuer, server, "dbai:read")
        assert token.count(".") != 2
        assert result(call(server, token, "query", {"sql": "SELECT 1"}))
        assert issuer.stats()["introspection_requests"] >= 1
        status, headers, _ = call(server, "not-a-token-it-issued", "query", {"sql": "SELECT 1"})
        assert status == 401 and 'error="invalid_token"' in headers["www-authenticate"]
    assert credentials not in server.stderr()


# MARK: - Flags


def test_oauth_flags_are_checked_before_anything_starts(dbai_bin: Path, chinook: Path) -> None:
    cases = [
        (["--oauth-issuer", "https://auth.example.com"], "--oauth-issuer applies to --http only"),
        (["--http", "127.0.0.1:0", "--oauth-issuer", "https://auth.example.com"], "--oauth-issuer needs --public-url"),
        (["--public-url", "https://db.example.com/mcp"], "--public-url applies to --oauth-issuer only"),
        (["--http", "127.0.0.1:0", "--oauth-issuer", "http://auth.example.com", "--public-url", "https://db.example.com/mcp"],
         "--oauth-issuer http://auth.example.com cannot be used"),
    ]
    for flags, message in cases:
        finished = run_binary(dbai_bin, "--db", str(chinook), *flags)
        assert finished.returncode != 0, flags
        assert message in finished.stderr, (flags, finished.stderr)


# MARK: - ask


def test_an_ask_conversation_belongs_to_its_caller_and_the_token_never_reaches_the_model(
    dbai_bin: Path, chinook: Path, issuer: AuthorizationServerHandle, fake_openai: str
) -> None:
    with resource_server(
        dbai_bin, chinook, issuer.issuer, "--llm", "openai-compatible:m", "--llm-base-url", fake_openai, "--llm-candidates", "1",
    ) as server:
        alice_client = issuer.register_client(scope="dbai:read")
        bob_client = issuer.register_client(scope="dbai:read")
        alice = issuer.client_credentials_token(*alice_client, scope="dbai:read", resource=server.url)
        bob = issuer.client_credentials_token(*bob_client, scope="dbai:read", resource=server.url)
        first = result(call(server, alice, "ask", {"question": "How many tracks are there?"}))
        assert not first.get("isError"), first
        conversation = first["structuredContent"]["conversation_id"]
        foreign = result(call(server, bob, "ask", {"question": "and albums?", "conversation_id": conversation}))
        assert foreign["isError"] and "Unknown conversation_id" in foreign["content"][0]["text"]
        own = result(call(server, alice, "ask", {"question": "and albums?", "conversation_id": conversation}))
        assert not own.get("isError"), own
        assert own["structuredContent"]["conversation_id"] == conversation
    sent = json.dumps(FakeOpenAI.requests)
    assert alice not in sent and bob not in sent
