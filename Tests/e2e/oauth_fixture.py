"""OAuth helpers for the end-to-end tests of dbai-mcp's resource-server mode.

- `authorization_server(tmp_path, **options)` runs oauth_as.py (a real authlib authorization
  server) in a subprocess for the length of a `with` block, and yields an
  `AuthorizationServerHandle` that drives it: key rotation, runtime configuration, request
  counters, client registration, client-credentials tokens, introspection, and forged tokens
  signed with its own key for refusal tests.
- `headless_oauth(server_url, ...)` is the official MCP Python client's `OAuthClientProvider`
  (an httpx `Auth`; httpx2's under mcp 2.x) that completes the authorization-code flow without a
  browser: it follows the authorization URL itself, and the authorization server approves at
  once. Its `storage` shows the tokens the client got; `expire_access_token()` makes the next
  request refresh.

The fixture talks to the server with the standard library (urllib), so it works the same in
both end-to-end environments; `headless_oauth` uses the HTTP library of the installed SDK.
"""

from __future__ import annotations

import base64
import json
import os
import queue
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
import warnings
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterator

import mcp.client.auth.oauth2 as _sdk_oauth2
from joserfc import jwt
from joserfc.errors import SecurityWarning
from joserfc.jwk import KeySet, import_key
from mcp.client.auth import OAuthClientProvider, OAuthFlowError
from mcp.shared.auth import OAuthClientInformationFull, OAuthClientMetadata, OAuthToken

from mcp_compat import MCP_MAJOR

if MCP_MAJOR >= 2:
    from mcp.shared.auth import AuthorizationCodeResult

__all__ = [
    "AS_SCRIPT",
    "AuthorizationServerHandle",
    "HeadlessOAuth",
    "InMemoryTokenStorage",
    "REDIRECT_URI",
    "authorization_server",
    "decode_unverified",
    "headless_oauth",
    "sdk_http",
]

#: The authorization server script this module starts.
AS_SCRIPT = Path(__file__).resolve().with_name("oauth_as.py")

#: How long the authorization server may take to print READY.
READY_TIMEOUT_SECONDS = 30.0

#: How long one call to the authorization server may take.
HTTP_TIMEOUT_SECONDS = 30.0

#: The redirect URI the headless client registers. Nothing listens there: the client reads the
#: code from the authorization server's redirect instead of following it.
REDIRECT_URI = "http://127.0.0.1:8976/callback"

#: The HTTP library the installed SDK's `OAuthClientProvider` is an `Auth` of: `httpx` under
#: mcp 1.x, `httpx2` under mcp 2.x (whose environment has no `httpx`). Build clients with it (or
#: with `mcp.shared._httpx_utils.create_mcp_http_client(auth=...)`).
sdk_http: Any = getattr(_sdk_oauth2, "httpx2", None) or _sdk_oauth2.httpx


# --------------------------------------------------------------------------------------------
# Small HTTP and JOSE helpers
# --------------------------------------------------------------------------------------------


def _call(
    method: str,
    url: str,
    *,
    json_body: Any = None,
    form: dict[str, Any] | None = None,
    basic: tuple[str, str] | None = None,
) -> tuple[int, Any]:
    """One HTTP request with urllib: (status, parsed JSON body or text). Errors are returned,
    not raised, so a caller can check a refusal."""
    headers = {"Accept": "application/json"}
    data = None
    if json_body is not None:
        data = json.dumps(json_body).encode()
        headers["Content-Type"] = "application/json"
    elif form is not None:
        data = urllib.parse.urlencode(form, doseq=True).encode()
        headers["Content-Type"] = "application/x-www-form-urlencoded"
    if basic is not None:
        # RFC 6749 §2.3.1: form-encode id and secret before Basic-encoding them.
        user, password = (urllib.parse.quote(part, safe="") for part in basic)
        headers["Authorization"] = "Basic " + base64.b64encode(f"{user}:{password}".encode()).decode()
    http_request = urllib.request.Request(url, data=data, method=method, headers=headers)
    try:
        with urllib.request.urlopen(http_request, timeout=HTTP_TIMEOUT_SECONDS) as response:
            status, body = response.status, response.read()
    except urllib.error.HTTPError as error:
        status, body = error.code, error.read()
    text = body.decode("utf-8", "replace")
    try:
        return status, json.loads(text) if text else None
    except ValueError:
        return status, text


def _expect(status: int, body: Any, what: str, expected: tuple[int, ...] = (200,)) -> Any:
    if status not in expected:
        raise RuntimeError(f"{what} failed: HTTP {status}: {body}")
    return body


def _b64url_json(value: dict[str, Any]) -> str:
    return base64.urlsafe_b64encode(json.dumps(value, separators=(",", ":")).encode()).rstrip(b"=").decode()


@contextmanager
def _quiet_joserfc() -> Iterator[None]:
    """Silences joserfc's SecurityWarning for algorithms it calls deprecated (EdDSA, none): the
    tests use them on purpose."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", SecurityWarning)
        yield


def decode_unverified(token: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """The (header, claims) of a compact JWS, without checking its signature."""

    def part(segment: str) -> dict[str, Any]:
        return json.loads(base64.urlsafe_b64decode(segment + "=" * (-len(segment) % 4)))

    header, payload, _signature = token.split(".")
    return part(header), part(payload)


# --------------------------------------------------------------------------------------------
# The authorization server
# --------------------------------------------------------------------------------------------


@dataclass
class AuthorizationServerHandle:
    """A running oauth_as.py. Endpoints are read from its RFC 8414 document's layout (they do
    not depend on `--discovery`)."""

    #: The issuer identifier, e.g. `http://127.0.0.1:41409/realms/test`.
    issuer: str
    #: `http://127.0.0.1:PORT`: where the admin endpoints are.
    base_url: str
    #: The pre-registered introspection client (`--introspection-client`).
    introspection_client: tuple[str, str]
    #: Its state directory: `oauth_as.log` (request log) and `stderr.log`.
    state_dir: Path
    process: subprocess.Popen = field(repr=False)

    # -- endpoints ---------------------------------------------------------------------------

    @property
    def oauth_metadata_url(self) -> str:
        """RFC 8414 §3: `/.well-known/oauth-authorization-server` + the issuer's path."""
        path = urllib.parse.urlsplit(self.issuer).path
        return f"{self.base_url}/.well-known/oauth-authorization-server{path}"

    @property
    def oidc_metadata_url(self) -> str:
        """OpenID Connect Discovery §4: the issuer + `/.well-known/openid-configuration`."""
        return f"{self.issuer}/.well-known/openid-configuration"

    @property
    def authorization_endpoint(self) -> str:
        return f"{self.issuer}/authorize"

    @property
    def token_endpoint(self) -> str:
        return f"{self.issuer}/token"

    @property
    def registration_endpoint(self) -> str:
        return f"{self.issuer}/register"

    @property
    def jwks_uri(self) -> str:
        return f"{self.issuer}/jwks"

    @property
    def introspection_endpoint(self) -> str:
        return f"{self.issuer}/introspect"

    @property
    def revocation_endpoint(self) -> str:
        return f"{self.issuer}/revoke"

    # -- admin -------------------------------------------------------------------------------

    def rotate(self, alg: str | None = None, retire_old: bool = False) -> str:
        """Makes a new key (of `alg`, default: the current key's) the signing key and returns its
        kid. The old public key stays in the JWKS unless `retire_old`."""
        body: dict[str, Any] = {"retire_old": retire_old}
        if alg:
            body["alg"] = alg
        return _expect(*_call("POST", f"{self.base_url}/admin/rotate", json_body=body), "rotate")["kid"]

    def stats(self) -> dict[str, int]:
        """Request counters: `jwks_requests`, `oauth_metadata_requests`, `oidc_metadata_requests`,
        `introspection_requests`, `token_requests`, and also `authorization_requests`,
        `registration_requests`, `revocation_requests`. A metadata document that `--discovery`
        leaves out still counts the (404) requests for it."""
        return _expect(*_call("GET", f"{self.base_url}/admin/stats"), "stats")

    def configure(self, **settings: Any) -> dict[str, Any]:
        """Changes `user`, `token_lifetime` (seconds), `opaque_tokens`, `default_audience` and/or
        `consent_scopes` (what the user grants at the authorization endpoint; a list or a
        space-separated string) for what is issued from now on; returns the whole
        configuration now in force."""
        return _expect(*_call("POST", f"{self.base_url}/admin/config", json_body=settings), "configure")

    def signing_key(self) -> dict[str, Any]:
        """The current signing key as a private JWK (`kty`, `kid`, `alg`, `use`, key material)."""
        return _expect(*_call("GET", f"{self.base_url}/admin/signing-key"), "signing-key")

    # -- OAuth -------------------------------------------------------------------------------

    def metadata(self) -> dict[str, Any]:
        """The RFC 8414 document (fails under `discovery="oidc"`)."""
        return _expect(*_call("GET", self.oauth_metadata_url), "metadata")

    def jwks(self) -> dict[str, Any]:
        return _expect(*_call("GET", self.jwks_uri), "jwks")

    def register_client(
        self,
        scope: str = "dbai:read",
        grant_types: list[str] | tuple[str, ...] = ("client_credentials",),
        **metadata: Any,
    ) -> tuple[str, str | None]:
        """Registers a client by RFC 7591 dynamic registration; returns (client_id, client_secret).
        By default a confidential client-credentials client (`client_secret_basic`); extra RFC 7591
        metadata (`redirect_uris`, `token_endpoint_auth_method`, ...) passes through. A public
        client (`token_endpoint_auth_method="none"`) gets no secret (None)."""
        body = {"scope": scope, "grant_types": list(grant_types), **metadata}
        if "authorization_code" not in body["grant_types"]:
            body.setdefault("response_types", [])
        info = _expect(*_call("POST", self.registration_endpoint, json_body=body), "registration", (201,))
        return info["client_id"], info.get("client_secret")

    def token_request(self, form: dict[str, Any], client: tuple[str, str | None] | None = None) -> tuple[int, Any]:
        """A raw token-endpoint call, (status, body): `client` as (id, secret) authenticates with
        HTTP Basic, or as (id, None) sends `client_id` only (a public client)."""
        form = dict(form)
        basic = None
        if client is not None:
            if client[1] is None:
                form["client_id"] = client[0]
            else:
                basic = (client[0], client[1])
        return _call("POST", self.token_endpoint, form=form, basic=basic)

    def client_credentials_token(
        self,
        client_id: str,
        client_secret: str,
        scope: str | None = None,
        resource: str | list[str] | None = None,
    ) -> str:
        """An access token from a real `client_credentials` token request (HTTP Basic). `scope`
        None asks for the client's registered scope; `resource` (one or several, RFC 8707)
        becomes the token's `aud`."""
        form: dict[str, Any] = {"grant_type": "client_credentials"}
        if scope is not None:
            form["scope"] = scope
        if resource is not None:
            form["resource"] = [resource] if isinstance(resource, str) else list(resource)
        body = _expect(*self.token_request(form, (client_id, client_secret)), "client_credentials token request")
        return body["access_token"]

    def introspect(self, token: str, token_type_hint: str | None = None) -> dict[str, Any]:
        """RFC 7662 introspection as the introspection client."""
        form = {"token": token}
        if token_type_hint:
            form["token_type_hint"] = token_type_hint
        return _expect(
            *_call("POST", self.introspection_endpoint, form=form, basic=self.introspection_client), "introspection"
        )

    # -- forged tokens -----------------------------------------------------------------------

    def claims(
        self, audience: str | list[str], scope: str = "dbai:read", lifetime: int = 300, **overrides: Any
    ) -> dict[str, Any]:
        """A valid RFC 9068 claim set as this server would issue it (sub `alice`, client
        `forged-client`), for `forge` to tweak: pass `exp=...`, `iss=...`, etc.; a None value
        drops the claim."""
        now = int(time.time())
        claims: dict[str, Any] = {
            "iss": self.issuer,
            "sub": "alice",
            "aud": audience,
            "client_id": "forged-client",
            "scope": scope,
            "iat": now,
            "nbf": now,
            "exp": now + lifetime,
            "jti": base64.urlsafe_b64encode(os.urandom(12)).decode().rstrip("="),
        }
        claims.update(overrides)
        return {name: value for name, value in claims.items() if value is not None}

    def forge(
        self,
        claims: dict[str, Any],
        header: dict[str, Any] | None = None,
        key: dict[str, Any] | Any | None = None,
    ) -> str:
        """Signs `claims` as a JWS (joserfc), by default with the server's current signing key and
        the header the server uses (`alg`, `typ: at+jwt`, `kid`). `header` entries override those
        (a None value drops one, e.g. `{"kid": None}`); `key` is another private JWK (dict) or
        joserfc key. `alg: none` gives an unsigned token."""
        key_dict = key if isinstance(key, dict) else None
        if key is None:
            key_dict = self.signing_key()
        signing_key = import_key(key_dict) if key_dict is not None else key
        defaults = {"alg": signing_key.alg, "typ": "at+jwt", "kid": signing_key.kid}
        merged = {**defaults, **(header or {})}
        merged = {name: value for name, value in merged.items() if value is not None}
        if merged.get("alg") == "none":
            return f"{_b64url_json(merged)}.{_b64url_json(claims)}."
        with _quiet_joserfc():
            return jwt.encode(merged, claims, signing_key, algorithms=[merged["alg"]])

    def verify(self, token: str) -> tuple[dict[str, Any], dict[str, Any]]:
        """The (header, claims) of a JWT access token, its signature checked against the JWKS."""
        header, _ = decode_unverified(token)
        with _quiet_joserfc():
            decoded = jwt.decode(token, KeySet.import_key_set(self.jwks()), algorithms=[header["alg"]])
        return dict(decoded.header), dict(decoded.claims)


def _option_arguments(options: dict[str, Any]) -> list[str]:
    """`issuer_path="/x"` -> `["--issuer-path", "/x"]`; an (id, secret) introspection client is
    joined with ':'."""
    arguments: list[str] = []
    for name, value in options.items():
        if value is None:
            continue
        if name == "introspection_client" and not isinstance(value, str):
            value = ":".join(value)
        arguments += [f"--{name.replace('_', '-')}", str(value)]
    return arguments


def _read_ready_line(process: subprocess.Popen, timeout: float) -> str | None:
    """The first stdout line, or None if the process ended or `timeout` passed first."""
    lines: queue.Queue[str] = queue.Queue()
    reader = threading.Thread(target=lambda: lines.put(process.stdout.readline()), daemon=True)
    reader.start()
    try:
        return lines.get(timeout=timeout) or None
    except queue.Empty:
        return None


@contextmanager
def authorization_server(tmp_path: Path, **options: Any) -> Iterator[AuthorizationServerHandle]:
    """Runs oauth_as.py for the `with` block and yields its handle.

    Options are oauth_as.py's, in Python spelling: `issuer_path` ("/realms/test"), `discovery`
    ("oauth" | "oidc" | "both"), `alg` ("RS256" | "ES256" | "EdDSA"),
    `token_lifetime` (seconds), `user` ("alice"), `introspection_client` ("id:secret" or a
    tuple; default `dbai-rs:rs-secret`), `default_audience` ("urn:dbai:none"), `port` (0).
    """
    tmp_path.mkdir(parents=True, exist_ok=True)
    state_dir = Path(tempfile.mkdtemp(prefix="oauth-as-", dir=tmp_path))
    introspection = options.get("introspection_client") or "dbai-rs:rs-secret"
    if not isinstance(introspection, str):
        introspection = ":".join(introspection)
    client_id, client_secret = introspection.split(":", 1)
    port = options.pop("port", 0)
    arguments = ["--port", str(port), "--state-dir", str(state_dir), *_option_arguments(options)]

    stderr_path = state_dir / "stderr.log"
    with open(stderr_path, "wb") as stderr:
        process = subprocess.Popen(
            [sys.executable, str(AS_SCRIPT), *arguments],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=stderr,
            text=True,
        )
    try:
        line = _read_ready_line(process, READY_TIMEOUT_SECONDS)
        if not line or not line.startswith("READY "):
            process.kill()
            process.wait(10)
            raise RuntimeError(
                f"oauth_as.py did not get ready (exit status {process.returncode}, first line {line!r}):\n"
                + stderr_path.read_text(errors="replace")
            )
        issuer = line.split(" ", 1)[1].strip()
        parts = urllib.parse.urlsplit(issuer)
        yield AuthorizationServerHandle(
            issuer=issuer,
            base_url=f"{parts.scheme}://{parts.netloc}",
            introspection_client=(client_id, client_secret),
            state_dir=state_dir,
            process=process,
        )
    finally:
        if process.poll() is None:
            process.terminate()
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait(10)
        if process.stdout:
            process.stdout.close()


# --------------------------------------------------------------------------------------------
# The headless MCP client
# --------------------------------------------------------------------------------------------


class InMemoryTokenStorage:
    """The SDK's `TokenStorage` protocol in memory, keeping every token set it was given."""

    def __init__(self) -> None:
        self.tokens: OAuthToken | None = None
        self.client_info: OAuthClientInformationFull | None = None
        #: Every `OAuthToken` stored, oldest first: the first from the authorization code, one
        #: more per refresh or re-authorization.
        self.token_history: list[OAuthToken] = []

    async def get_tokens(self) -> OAuthToken | None:
        return self.tokens

    async def set_tokens(self, tokens: OAuthToken) -> None:
        self.tokens = tokens
        self.token_history.append(tokens)

    async def get_client_info(self) -> OAuthClientInformationFull | None:
        return self.client_info

    async def set_client_info(self, client_info: OAuthClientInformationFull) -> None:
        self.client_info = client_info


class HeadlessOAuth(OAuthClientProvider):
    """The SDK's `OAuthClientProvider` with a user agent that needs no browser (see
    `headless_oauth`). Adds `storage`, `authorization_requests`, `access_token` and
    `expire_access_token()`."""

    def __init__(
        self,
        server_url: str,
        *,
        issuer_hint: str | None = None,
        scope: str | None = None,
        storage: InMemoryTokenStorage | None = None,
    ) -> None:
        self.storage = storage if storage is not None else InMemoryTokenStorage()
        self.issuer_hint = issuer_hint.rstrip("/") if issuer_hint else None
        self.requested_scope = scope
        #: The query parameters of each authorization request the client made (one value per
        #: name, a list for a repeated name such as `resource`).
        self.authorization_requests: list[dict[str, Any]] = []
        #: The parameters of each authorization response (`code`, `state`, `iss`).
        self.authorization_responses: list[dict[str, str]] = []
        self._pending: dict[str, str] | None = None
        super().__init__(
            server_url=server_url,
            client_metadata=OAuthClientMetadata(
                redirect_uris=[REDIRECT_URI],
                client_name="dbai-mcp e2e (headless)",
                grant_types=["authorization_code", "refresh_token"],
                response_types=["code"],
                token_endpoint_auth_method="none",
                scope=scope,
            ),
            storage=self.storage,
            redirect_handler=self._follow_authorization_url,
            callback_handler=self._authorization_response,
        )

    @property
    def access_token(self) -> str | None:
        return self.storage.tokens.access_token if self.storage.tokens else None

    def expire_access_token(self) -> None:
        """Makes the provider hold its access token for expired, so the next request refreshes
        it (with the stored refresh token) before being sent. Works on a provider that has not
        sent anything yet too (tokens loaded from a shared storage)."""
        # `is_token_valid` reads this deadline, not the token; 0 would mean "no expiry".
        self.context.token_expiry_time = time.time() - 1

    async def _follow_authorization_url(self, authorization_url: str) -> None:
        """The user agent: GETs the authorization URL (the server approves at once) and keeps
        the `code`, `state` and `iss` of the redirect it answers with, without following it."""
        parts = urllib.parse.urlsplit(authorization_url)
        query = urllib.parse.parse_qs(parts.query, keep_blank_values=True)
        self.authorization_requests.append(
            {name: values[0] if len(values) == 1 else values for name, values in query.items()}
        )
        if self.issuer_hint and not authorization_url.startswith(self.issuer_hint + "/"):
            raise OAuthFlowError(
                f"authorization endpoint {authorization_url} is not under the expected issuer {self.issuer_hint}"
            )
        if self.requested_scope is not None:
            # Like a consent screen on which the user grants only these scopes.
            query["scope"] = [self.requested_scope]
            authorization_url = urllib.parse.urlunsplit(parts._replace(query=urllib.parse.urlencode(query, doseq=True)))

        async with sdk_http.AsyncClient(follow_redirects=False, timeout=HTTP_TIMEOUT_SECONDS) as client:
            response = await client.get(authorization_url)
        location = response.headers.get("location")
        if response.status_code not in (302, 303) or not location:
            raise OAuthFlowError(f"authorization request failed: HTTP {response.status_code}: {response.text}")
        redirect = dict(urllib.parse.parse_qsl(urllib.parse.urlsplit(location).query))
        self.authorization_responses.append(redirect)
        if "error" in redirect:
            raise OAuthFlowError(f"authorization refused: {redirect.get('error')}: {redirect.get('error_description')}")
        self._pending = redirect

    async def _authorization_response(self) -> Any:
        """What the SDK's callback handler returns: `(code, state)` under mcp 1.x, an
        `AuthorizationCodeResult(code, state, iss)` under 2.x (which checks RFC 9207's `iss`)."""
        redirect, self._pending = self._pending, None
        if redirect is None:
            raise OAuthFlowError("no authorization response captured")
        if MCP_MAJOR >= 2:
            return AuthorizationCodeResult(code=redirect["code"], state=redirect.get("state"), iss=redirect.get("iss"))
        return redirect["code"], redirect.get("state")


def headless_oauth(
    server_url: str,
    issuer_hint: str | None = None,
    scope: str | None = None,
    storage: InMemoryTokenStorage | None = None,
) -> HeadlessOAuth:
    """An `Auth` (httpx's under mcp 1.x, httpx2's under 2.x) for the MCP endpoint `server_url`,
    built on the SDK's `OAuthClientProvider`: on a 401 it discovers the protected resource and
    authorization server metadata, registers itself (RFC 7591, public client, PKCE), and gets a
    token without a browser.

    - `issuer_hint`: if given, the authorization URL must be under this issuer (the flow fails
      otherwise), so a test notices the client was sent to another server.
    - `scope`: if given, the authorization request asks for exactly this scope instead of what
      the SDK picked (WWW-Authenticate `scope`, else the metadata's `scopes_supported`).
    - `storage`: an `InMemoryTokenStorage` to share (e.g. with a second provider standing for a
      restarted client); a new one otherwise. Read it as `.storage`.
    """
    return HeadlessOAuth(server_url, issuer_hint=issuer_hint, scope=scope, storage=storage)
