"""A real OAuth 2.1 authorization server for the end-to-end tests of dbai-mcp's resource-server mode.

The tests start it themselves (oauth_fixture.py does) and point `dbai-mcp` and the official MCP
client at it. The OAuth logic is authlib's own: the authorization code grant with PKCE
(`AuthorizationCodeGrant` + `CodeChallenge`), refresh tokens (`RefreshTokenGrant`), client
credentials (`ClientCredentialsGrant`), RFC 9068 JWT access tokens (`JWTBearerTokenGenerator`),
RFC 7591 dynamic client registration (`ClientRegistrationEndpoint`), RFC 7662 introspection
(`IntrospectionEndpoint`), RFC 7009 revocation (`RevocationEndpoint`), RFC 9207's `iss`
authorization-response parameter (`IssuerParameter`) and RFC 8414 metadata
(`AuthorizationServerMetadata`). What this file adds is the glue: in-memory storage, the models
authlib's mixins describe, RFC 8707 resource indicators (authlib leaves them to the application),
headless consent, key rotation and a few test-only admin endpoints.

Run it as

    python Tests/e2e/oauth_as.py --port 0 --state-dir DIR [--issuer-path /realms/test]
        [--discovery oauth|oidc|both] [--alg RS256|ES256|EdDSA] [--token-lifetime 3600]
        [--user alice] [--introspection-client dbai-rs:rs-secret] [--default-audience urn:dbai:none]

It prints one line, `READY <issuer>`, on stdout once it listens on 127.0.0.1, and nothing else
there; errors go to stderr, and a request log to DIR/oauth_as.log.

Endpoints, all under the issuer (`http://127.0.0.1:PORT<issuer-path>`):

- `/authorize`: authorization code grant; public clients must use PKCE with S256. There is no
  login page: every valid request is approved at once as the configured user (`--user`, or
  `POST /admin/config {"user": ...}`). The redirect carries `code`, `state` and `iss` (RFC 9207).
- `/token`: `authorization_code` (with PKCE), `refresh_token` (rotating: each refresh token is
  single-use and the response carries a new one) and `client_credentials`.
- `/register`: open dynamic client registration (RFC 7591); `token_endpoint_auth_method: none`
  registers a public client (no secret).
- `/jwks`: the public signing keys (`kid`, `kty`, `use: sig`, `alg`).
- `/introspect`: RFC 7662, for the introspection client only (HTTP Basic or POST credentials).
- `/revoke`: RFC 7009, for the client a token was issued to.
- RFC 8414 metadata at `/.well-known/oauth-authorization-server<issuer-path>` and OpenID Connect
  discovery at `<issuer-path>/.well-known/openid-configuration` (`--discovery` picks which are
  served; the other answers 404).

Scopes: a token carries only scopes the client may have. For a client registered for the
authorization code grant that is whatever the user grants (`consent_scopes`, default all), its
registration's `scope` notwithstanding (so an MCP client can step up to more scopes with the
same registration); for a client-credentials-only client, the scope it registered. A token
request without `scope` gets all of those.

RFC 8707: `resource` (repeatable) on the authorization request is recorded with the code; a
`resource` on a token request must be one of those (`invalid_target` otherwise) and narrows the
token's audience to it. Client credentials take `resource` from the token request. The access
token's `aud` is the resource (a list when several), or `--default-audience` when none was asked
for.

Access tokens are RFC 9068 JWTs (header `typ: at+jwt` and the signing key's `kid`; claims `iss`,
`sub`, `aud`, `client_id`, `scope`, `exp`, `iat`, `nbf`, `jti`), or, in opaque mode, random
strings that only introspection can read (with the same claims).

Test-only admin endpoints at the root (`/admin/...`, not under the issuer path; loopback only):
`POST /admin/rotate {"alg": "ES256", "retire_old": false}` -> `{"kid": ...}`,
`GET /admin/stats`, `POST /admin/config {"user", "token_lifetime", "opaque_tokens",
"default_audience", "consent_scopes"}` -> the configuration now in force,
`GET /admin/signing-key` -> the current signing key as a private JWK.
"""

from __future__ import annotations

import argparse
import ipaddress
import logging
import secrets
import sys
import threading
import time
import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

from authlib.common.security import generate_token
from authlib.integrations.flask_oauth2 import AuthorizationServer
from authlib.oauth2 import OAuth2Error
from authlib.oauth2.rfc6749 import grants
from authlib.oauth2.rfc6749.errors import AccessDeniedError, InvalidRequestError
from authlib.oauth2.rfc6749.models import AuthorizationCodeMixin, ClientMixin, TokenMixin
from authlib.oauth2.rfc6749.util import list_to_scope, scope_to_list
from authlib.oauth2.rfc7009 import RevocationEndpoint
from authlib.oauth2.rfc7591 import ClientRegistrationEndpoint
from authlib.oauth2.rfc7636 import CodeChallenge
from authlib.oauth2.rfc7662 import IntrospectionEndpoint
from authlib.oauth2.rfc8414 import AuthorizationServerMetadata
from authlib.oauth2.rfc8414.well_known import get_well_known_url
from authlib.oauth2.rfc9068 import JWTBearerTokenGenerator
from authlib.oauth2.rfc9207 import AuthorizationServerMetadata as IssuerParameterMetadata
from authlib.oauth2.rfc9207 import IssuerParameter
from authlib.oidc.discovery.well_known import get_well_known_url as get_oidc_well_known_url
from flask import Blueprint, Flask, abort, g, jsonify, request
from joserfc import jwt
from joserfc.jwk import ECKey, KeySet, OKPKey, RSAKey
from joserfc.jws import JWSRegistry
from werkzeug.serving import make_server

#: The scopes this server knows; `dbai:*` are the ones dbai-mcp's resource server maps to tools.
SCOPES_SUPPORTED = ["dbai:read", "dbai:write", "dbai:delete", "dbai:unmask", "openid"]

#: Signing algorithms a key can be made for (`EdDSA`: RFC 8037, with an Ed25519 key).
SIGNING_ALGORITHMS = ("RS256", "ES256", "EdDSA")

#: How long an authorization code may wait for its token request (RFC 6749 recommends 10 minutes).
AUTHORIZATION_CODE_LIFETIME = 600

log = logging.getLogger("oauth_as")


def allow_eddsa_signing() -> None:
    """joserfc 1.8 treats EdDSA as "not recommended" (RFC 9864 deprecates the name) and refuses to
    sign with it unless the caller names it in `algorithms`, which authlib's JWT access-token
    generator does not. This process is a test server that must be able to issue EdDSA tokens, so
    `main` opts in, for this process only."""
    if "EdDSA" not in JWSRegistry.recommended:
        JWSRegistry.recommended.append("EdDSA")


# --------------------------------------------------------------------------------------------
# Signing keys
# --------------------------------------------------------------------------------------------


def generate_signing_key(alg: str) -> RSAKey | ECKey | OKPKey:
    """A fresh private signing key for `alg`, with `use: sig`, `alg` and a thumbprint `kid`."""
    parameters = {"use": "sig", "alg": alg}
    if alg == "RS256":
        key = RSAKey.generate_key(2048, parameters=parameters)
    elif alg == "ES256":
        key = ECKey.generate_key("P-256", parameters=parameters)
    elif alg == "EdDSA":
        key = OKPKey.generate_key("Ed25519", parameters=parameters)
    else:
        raise ValueError(f"unsupported signing algorithm {alg!r} (one of {', '.join(SIGNING_ALGORITHMS)})")
    key.ensure_kid()
    return key


class KeyRing:
    """The signing keys: the newest signs, every published one is in the JWKS."""

    def __init__(self, alg: str) -> None:
        self._lock = threading.Lock()
        self._keys: list[RSAKey | ECKey | OKPKey] = [generate_signing_key(alg)]

    @property
    def signing_key(self) -> RSAKey | ECKey | OKPKey:
        with self._lock:
            return self._keys[-1]

    def rotate(self, alg: str, retire_old: bool) -> str:
        """Makes a new key the signing key; the old ones stay published unless `retire_old`."""
        key = generate_signing_key(alg)
        with self._lock:
            self._keys = [key] if retire_old else [*self._keys, key]
        return str(key.kid)

    def jwks(self) -> dict[str, Any]:
        """The JWKS document: the public half of every published key."""
        with self._lock:
            return {"keys": [key.as_dict(private=False) for key in self._keys]}


# --------------------------------------------------------------------------------------------
# Models (what authlib's mixins ask of the application)
# --------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class User:
    """A resource owner; only its subject identifier matters here."""

    sub: str

    def get_user_id(self) -> str:
        return self.sub


@dataclass
class Client(ClientMixin):
    """A registered client. `metadata` holds its RFC 7591 metadata, defaults filled in."""

    client_id: str
    client_secret: str | None
    metadata: dict[str, Any]
    #: Whether this client may call the introspection endpoint.
    introspector: bool = False

    @property
    def token_endpoint_auth_method(self) -> str:
        return self.metadata["token_endpoint_auth_method"]

    @property
    def is_public(self) -> bool:
        return self.token_endpoint_auth_method == "none"

    @property
    def scope(self) -> str:
        return self.metadata["scope"]

    def get_client_id(self) -> str:
        return self.client_id

    def get_default_redirect_uri(self) -> str | None:
        uris = self.metadata.get("redirect_uris") or []
        return uris[0] if uris else None

    def get_allowed_scope(self, scope: str | None) -> str | None:
        """The requested scope narrowed to what the client registered for; the registered scope
        when none is requested (RFC 6749 §3.3); None (`invalid_scope`) when nothing is left."""
        if not scope:
            return self.scope
        allowed = set(scope_to_list(self.scope))
        granted = [item for item in scope_to_list(scope) if item in allowed]
        return list_to_scope(granted) if granted else None

    def check_redirect_uri(self, redirect_uri: str) -> bool:
        return redirect_uri in (self.metadata.get("redirect_uris") or [])

    def check_client_secret(self, client_secret: str) -> bool:
        return bool(self.client_secret) and secrets.compare_digest(self.client_secret, client_secret)

    def check_endpoint_auth_method(self, method: str, endpoint: str) -> bool:
        # The token endpoint takes the method the client registered; introspection and revocation
        # take either secret method from a confidential client, and `none` from a public one.
        if endpoint == "token":
            return method == self.token_endpoint_auth_method
        return (method == "none") == self.is_public

    def check_response_type(self, response_type: str) -> bool:
        return response_type in self.metadata["response_types"]

    def check_grant_type(self, grant_type: str) -> bool:
        return grant_type in self.metadata["grant_types"]


@dataclass
class AuthorizationCode(AuthorizationCodeMixin):
    """An issued authorization code, with what the token request must match."""

    code: str
    client_id: str
    redirect_uri: str | None
    scope: str
    user_sub: str
    code_challenge: str | None
    code_challenge_method: str | None
    #: RFC 8707 resources of the authorization request.
    resources: list[str]
    issued_at: float = field(default_factory=time.time)

    def get_redirect_uri(self) -> str | None:
        return self.redirect_uri

    def get_scope(self) -> str:
        return self.scope

    def is_expired(self) -> bool:
        return time.time() > self.issued_at + AUTHORIZATION_CODE_LIFETIME


@dataclass
class AccessTokenRecord(TokenMixin):
    """An issued access token (JWT or opaque) and its claims, for introspection and revocation."""

    access_token: str
    client_id: str
    claims: dict[str, Any]
    opaque: bool
    revoked: bool = False

    def check_client(self, client: Client) -> bool:
        return client.get_client_id() == self.client_id

    def get_scope(self) -> str:
        return self.claims.get("scope", "")

    def get_expires_in(self) -> int:
        return int(self.claims["exp"]) - int(self.claims["iat"])

    def is_expired(self) -> bool:
        return time.time() >= self.claims["exp"]

    def is_revoked(self) -> bool:
        return self.revoked

    def introspection(self) -> dict[str, Any]:
        """RFC 7662 §2.2 response members: the token's claims and its type."""
        return {"active": True, "token_type": "Bearer", **self.claims}


@dataclass
class RefreshTokenRecord(TokenMixin):
    """An issued refresh token: the grant it can renew (user, scope, RFC 8707 resources)."""

    refresh_token: str
    client_id: str
    user_sub: str | None
    scope: str
    resources: list[str]
    issuer: str
    issued_at: int = field(default_factory=lambda: int(time.time()))
    revoked: bool = False

    def check_client(self, client: Client) -> bool:
        return client.get_client_id() == self.client_id

    def get_scope(self) -> str:
        return self.scope

    def get_expires_in(self) -> int:
        return 0

    def is_expired(self) -> bool:
        return False

    def is_revoked(self) -> bool:
        return self.revoked

    def introspection(self) -> dict[str, Any]:
        payload: dict[str, Any] = {
            "active": True,
            "iss": self.issuer,
            "client_id": self.client_id,
            "scope": self.scope,
            "iat": self.issued_at,
        }
        if self.user_sub:
            payload["sub"] = self.user_sub
        if self.resources:
            payload["aud"] = self.resources[0] if len(self.resources) == 1 else list(self.resources)
        return payload


# --------------------------------------------------------------------------------------------
# State: configuration, storage and counters
# --------------------------------------------------------------------------------------------


@dataclass
class Config:
    """What `/admin/config` can change while the server runs."""

    #: The subject the authorization endpoint approves as.
    user: str
    #: Lifetime of access tokens issued from now on, seconds.
    token_lifetime: int
    #: Whether access tokens are opaque strings instead of JWTs.
    opaque_tokens: bool
    #: `aud` of a token for which no resource was requested.
    default_audience: str
    #: The scopes the user grants at the authorization endpoint (the others requested are left
    #: out of the code; none left is `access_denied`).
    consent_scopes: list[str] = field(default_factory=lambda: list(SCOPES_SUPPORTED))


class State:
    """Everything the server holds, in memory, behind one lock."""

    def __init__(self, issuer: str, keys: KeyRing, config: Config) -> None:
        self.issuer = issuer
        self.keys = keys
        self.config = config
        self.lock = threading.RLock()
        self.clients: dict[str, Client] = {}
        self.codes: dict[str, AuthorizationCode] = {}
        self.access_tokens: dict[str, AccessTokenRecord] = {}
        self.refresh_tokens: dict[str, RefreshTokenRecord] = {}
        self.stats = dict.fromkeys(
            (
                "jwks_requests",
                "oauth_metadata_requests",
                "oidc_metadata_requests",
                "introspection_requests",
                "token_requests",
                "authorization_requests",
                "registration_requests",
                "revocation_requests",
            ),
            0,
        )

    def count(self, name: str) -> None:
        with self.lock:
            self.stats[name] += 1

    def add_client(self, client: Client) -> None:
        with self.lock:
            self.clients[client.client_id] = client

    def query_client(self, client_id: str) -> Client | None:
        with self.lock:
            return self.clients.get(client_id)

    def find_token(self, token: str, hint: str | None) -> AccessTokenRecord | RefreshTokenRecord | None:
        """An issued access or refresh token by its string (the hint only orders the lookup)."""
        with self.lock:
            stores = [self.access_tokens, self.refresh_tokens]
            if hint == "refresh_token":
                stores.reverse()
            for store in stores:
                if token in store:
                    return store[token]
        return None


# --------------------------------------------------------------------------------------------
# RFC 8707 resource indicators (authlib leaves them to the application)
# --------------------------------------------------------------------------------------------


class InvalidTargetError(OAuth2Error):
    """RFC 8707 §2: the requested resource is invalid, unknown, or not allowed."""

    error = "invalid_target"


def requested_resources(oauth_request: Any, redirect_uri: str | None = None) -> list[str]:
    """The `resource` parameters of a request, each an absolute URI without a fragment."""
    resources = list(oauth_request.payload.datalist.get("resource", []))
    for resource in resources:
        parts = urlsplit(resource)
        if not parts.scheme or not parts.netloc or parts.fragment or "#" in resource:
            raise InvalidTargetError(
                description="resource must be an absolute URI without a fragment",
                redirect_uri=redirect_uri,
                state=oauth_request.payload.state,
            )
    # Keep the order the client gave, without repeats.
    return list(dict.fromkeys(resources))


def settle_resources(oauth_request: Any, granted: list[str] | None) -> None:
    """Decides the resources of a token request: those requested, which must be among the
    `granted` ones when the grant has any, else all granted ones. Records on the request the
    token's audience (`dbai_audience`) and what a refresh token may later ask for
    (`dbai_granted_resources`)."""
    requested = requested_resources(oauth_request)
    if granted and not set(requested) <= set(granted):
        raise InvalidTargetError(description="resource was not part of the authorization grant")
    oauth_request.dbai_audience = requested or list(granted or [])
    oauth_request.dbai_granted_resources = list(granted) if granted else requested


class IssuesTokens:
    """Grant mixin: hands the token's audience to the token generator (through `flask.g`, the
    only channel from a grant to authlib's generator, which sees client, user and scope only)."""

    def generate_token(self, *args: Any, **kwargs: Any) -> dict[str, Any]:
        g.dbai_audience = getattr(self.request, "dbai_audience", [])  # type: ignore[attr-defined]
        return super().generate_token(*args, **kwargs)  # type: ignore[misc]


# --------------------------------------------------------------------------------------------
# Grants
# --------------------------------------------------------------------------------------------


class S256CodeChallenge(CodeChallenge):
    """PKCE as OAuth 2.1 has it: S256 only, and mandatory for public clients (authlib's
    `CodeChallenge(required=True)` already insists on the verifier at the token endpoint)."""

    SUPPORTED_CODE_CHALLENGE_METHOD = ["S256"]
    DEFAULT_CODE_CHALLENGE_METHOD = "S256"

    def validate_code_challenge(self, grant: Any, redirect_uri: str) -> None:
        data = grant.request.payload.data
        if grant.request.client.is_public and not data.get("code_challenge"):
            raise InvalidRequestError("Public clients must send a PKCE code_challenge")
        if data.get("code_challenge") and data.get("code_challenge_method") != "S256":
            raise InvalidRequestError("code_challenge_method must be S256")
        super().validate_code_challenge(grant, redirect_uri)


def make_grants(state: State) -> tuple[type, type, type]:
    """The three grants, bound to `state`'s storage."""

    class AuthorizationCodeGrant(IssuesTokens, grants.AuthorizationCodeGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

        def validate_authorization_request(self) -> str:
            redirect_uri = super().validate_authorization_request()
            self.request.dbai_resources = requested_resources(self.request, redirect_uri)
            # Headless consent: the user grants the requested scopes it is configured to grant.
            consented = [item for item in scope_to_list(self.request.scope) if item in state.config.consent_scopes]
            if not consented:
                raise AccessDeniedError(
                    description="The user granted none of the requested scopes",
                    redirect_uri=redirect_uri,
                    state=self.request.payload.state,
                )
            self.request.scope = list_to_scope(consented)
            return redirect_uri

        def save_authorization_code(self, code: str, oauth_request: Any) -> None:
            data = oauth_request.payload.data
            record = AuthorizationCode(
                code=code,
                client_id=oauth_request.client.client_id,
                redirect_uri=oauth_request.payload.redirect_uri,
                scope=oauth_request.scope,
                user_sub=oauth_request.user.get_user_id(),
                code_challenge=data.get("code_challenge"),
                code_challenge_method=data.get("code_challenge_method"),
                resources=getattr(oauth_request, "dbai_resources", []),
            )
            with state.lock:
                state.codes[code] = record

        def query_authorization_code(self, code: str, client: Client) -> AuthorizationCode | None:
            with state.lock:
                record = state.codes.get(code)
            if record and record.client_id == client.client_id and not record.is_expired():
                return record
            return None

        def delete_authorization_code(self, authorization_code: AuthorizationCode) -> None:
            with state.lock:
                state.codes.pop(authorization_code.code, None)

        def authenticate_user(self, authorization_code: AuthorizationCode) -> User:
            return User(authorization_code.user_sub)

        def validate_token_request(self) -> None:
            super().validate_token_request()
            settle_resources(self.request, self.request.authorization_code.resources)
            self.request.dbai_granted_scope = self.request.authorization_code.scope

    class RefreshTokenGrant(IssuesTokens, grants.RefreshTokenGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]
        #: Rotation: each refresh returns a new refresh token and retires the one used.
        INCLUDE_NEW_REFRESH_TOKEN = True

        def authenticate_refresh_token(self, refresh_token: str) -> RefreshTokenRecord | None:
            with state.lock:
                record = state.refresh_tokens.get(refresh_token)
            return record if record and not record.is_revoked() else None

        def authenticate_user(self, refresh_token: RefreshTokenRecord) -> User | None:
            return User(refresh_token.user_sub) if refresh_token.user_sub else None

        def revoke_old_credential(self, refresh_token: RefreshTokenRecord) -> None:
            with state.lock:
                refresh_token.revoked = True

        def validate_token_request(self) -> None:
            super().validate_token_request()
            settle_resources(self.request, self.request.refresh_token.resources)
            # RFC 6749 §6: a new refresh token keeps the scope of the one it replaces.
            self.request.dbai_granted_scope = self.request.refresh_token.scope

    class ClientCredentialsGrant(IssuesTokens, grants.ClientCredentialsGrant):
        TOKEN_ENDPOINT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

        def validate_token_request(self) -> None:
            super().validate_token_request()
            settle_resources(self.request, None)

    return AuthorizationCodeGrant, RefreshTokenGrant, ClientCredentialsGrant


# --------------------------------------------------------------------------------------------
# Access tokens
# --------------------------------------------------------------------------------------------


class AccessTokenGenerator(JWTBearerTokenGenerator):
    """authlib's RFC 9068 generator, signing with the key ring's current key (whose `kid` joserfc
    puts in the header), with `aud` from RFC 8707 and an `nbf`. In opaque mode the JWT is made
    all the same, for its claims, and a random string is handed out in its place."""

    def __init__(self, state: State) -> None:
        super().__init__(
            issuer=state.issuer,
            alg=state.keys.signing_key.alg,
            refresh_token_generator=lambda **_: generate_token(48),
            expires_generator=lambda client, grant_type: state.config.token_lifetime,
        )
        self.state = state
        self._lock = threading.Lock()
        self._not_before = 0

    def get_jwks(self) -> KeySet:
        # A key set of one: joserfc then writes that key's kid into the header.
        return KeySet([self._signing_key])

    def get_audiences(self, client: Client, user: Any, scope: str) -> str | list[str]:
        audience = list(g.get("dbai_audience") or [])
        if not audience:
            return self.state.config.default_audience
        return audience[0] if len(audience) == 1 else audience

    def get_extra_claims(self, client: Client, grant_type: str, user: Any, scope: str) -> dict[str, Any]:
        return {"nbf": self._not_before}

    def access_token_generator(self, client: Client, grant_type: str, user: Any, scope: str) -> str:
        with self._lock:  # the key and alg must not change between header and signature
            self._signing_key = self.state.keys.signing_key
            self.alg = self._signing_key.alg
            self._not_before = int(time.time())
            signed = super().access_token_generator(client, grant_type, user, scope)
            claims = jwt.decode(signed, self._signing_key, algorithms=[self.alg]).claims
        token = generate_token(42) if self.state.config.opaque_tokens else signed
        g.dbai_claims = claims  # picked up by save_token
        return token


def make_save_token(state: State):
    """authlib's `save_token` callback: records the access token (and refresh token) issued."""

    def save_token(token: dict[str, Any], oauth_request: Any) -> None:
        claims = g.pop("dbai_claims")
        access = AccessTokenRecord(
            access_token=token["access_token"],
            client_id=oauth_request.client.client_id,
            claims=claims,
            opaque=state.config.opaque_tokens,
        )
        refresh = None
        if token.get("refresh_token"):
            refresh = RefreshTokenRecord(
                refresh_token=token["refresh_token"],
                client_id=oauth_request.client.client_id,
                user_sub=oauth_request.user.get_user_id() if oauth_request.user else None,
                scope=getattr(oauth_request, "dbai_granted_scope", None) or token.get("scope", ""),
                resources=getattr(oauth_request, "dbai_granted_resources", []),
                issuer=state.issuer,
            )
        with state.lock:
            state.access_tokens[access.access_token] = access
            if refresh:
                state.refresh_tokens[refresh.refresh_token] = refresh

    return save_token


# --------------------------------------------------------------------------------------------
# Registration, introspection, revocation, RFC 9207
# --------------------------------------------------------------------------------------------


def make_endpoints(state: State, metadata: dict[str, Any]) -> list[Any]:
    """The extra endpoints and extensions, bound to `state`."""

    class RegistrationEndpoint(ClientRegistrationEndpoint):
        """Open registration (RFC 7591 §3: no initial access token needed)."""

        def authenticate_token(self, oauth_request: Any) -> bool:
            return True

        def get_server_metadata(self) -> dict[str, Any]:
            return metadata

        def extract_client_metadata(self, oauth_request: Any) -> dict[str, Any]:
            # RFC 7591 §2 defaults, written out so the response says what was registered.
            client_metadata = super().extract_client_metadata(oauth_request)
            client_metadata.setdefault("token_endpoint_auth_method", "client_secret_basic")
            client_metadata.setdefault("grant_types", ["authorization_code"])
            client_metadata.setdefault("response_types", ["code"])
            client_metadata.setdefault("scope", list_to_scope(SCOPES_SUPPORTED))
            if "authorization_code" in client_metadata["grant_types"]:
                # For a client acting for a user, the user decides (see `consent_scopes`), not
                # the registration (RFC 7591 §3.2.1 lets the server replace requested metadata):
                # an MCP client registers with the scope of its first challenge and must still
                # be able to step up to more later with the same registration.
                client_metadata["scope"] = list_to_scope(SCOPES_SUPPORTED)
            return client_metadata

        def generate_client_info(self, oauth_request: Any) -> dict[str, Any]:
            info = super().generate_client_info(oauth_request)
            if (oauth_request.payload.data or {}).get("token_endpoint_auth_method") == "none":
                info.pop("client_secret")  # a public client gets no secret
                info.pop("client_secret_expires_at")
            return info

        def save_client(
            self, client_info: dict[str, Any], client_metadata: dict[str, Any], oauth_request: Any
        ) -> Client:
            client = Client(client_info["client_id"], client_info.get("client_secret"), dict(client_metadata))
            state.add_client(client)
            return client

    class Introspection(IntrospectionEndpoint):
        CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post"]

        def query_token(self, token_string: str, token_type_hint: str | None) -> Any:
            return state.find_token(token_string, token_type_hint)

        def check_permission(self, token: Any, client: Client, oauth_request: Any) -> bool:
            return client.introspector

        def introspect_token(self, token: AccessTokenRecord | RefreshTokenRecord) -> dict[str, Any]:
            return token.introspection()

    class Revocation(RevocationEndpoint):
        CLIENT_AUTH_METHODS = ["client_secret_basic", "client_secret_post", "none"]

        def query_token(self, token_string: str, token_type_hint: str | None) -> Any:
            return state.find_token(token_string, token_type_hint)

        def revoke_token(self, token: AccessTokenRecord | RefreshTokenRecord, oauth_request: Any) -> None:
            with state.lock:
                token.revoked = True

    class Issuer(IssuerParameter):
        def get_issuer(self) -> str:
            return state.issuer

    return [RegistrationEndpoint, Introspection, Revocation, Issuer()]


# --------------------------------------------------------------------------------------------
# Metadata
# --------------------------------------------------------------------------------------------


def oauth_metadata(issuer: str) -> dict[str, Any]:
    """RFC 8414 authorization server metadata, checked with authlib's model."""
    metadata = AuthorizationServerMetadata(
        {
            "issuer": issuer,
            "authorization_endpoint": f"{issuer}/authorize",
            "token_endpoint": f"{issuer}/token",
            "jwks_uri": f"{issuer}/jwks",
            "registration_endpoint": f"{issuer}/register",
            "introspection_endpoint": f"{issuer}/introspect",
            "revocation_endpoint": f"{issuer}/revoke",
            "scopes_supported": SCOPES_SUPPORTED,
            "response_types_supported": ["code"],
            "response_modes_supported": ["query"],
            "grant_types_supported": ["authorization_code", "refresh_token", "client_credentials"],
            "token_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
            "introspection_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "revocation_endpoint_auth_methods_supported": ["none", "client_secret_basic", "client_secret_post"],
            "code_challenge_methods_supported": ["S256"],
            "authorization_response_iss_parameter_supported": True,
        }
    )
    metadata.validate(metadata_classes=[IssuerParameterMetadata])
    return dict(metadata)


def oidc_metadata(issuer: str, keys: KeyRing) -> dict[str, Any]:
    """The same document as OpenID Connect discovery serves it (with the members OIDC requires)."""
    return {
        **oauth_metadata(issuer),
        "subject_types_supported": ["public"],
        "id_token_signing_alg_values_supported": [keys.signing_key.alg],
    }


# --------------------------------------------------------------------------------------------
# The Flask application
# --------------------------------------------------------------------------------------------


def create_app(state: State, issuer_path: str, discovery: str) -> Flask:
    app = Flask(__name__)
    metadata = oauth_metadata(state.issuer)

    server = AuthorizationServer(app, query_client=state.query_client, save_token=make_save_token(state))
    server.scopes_supported = SCOPES_SUPPORTED
    server.register_token_generator("default", AccessTokenGenerator(state))
    code_grant, refresh_grant, client_credentials_grant = make_grants(state)
    server.register_grant(code_grant, [S256CodeChallenge(required=True)])
    server.register_grant(refresh_grant)
    server.register_grant(client_credentials_grant)
    registration, introspection, revocation, issuer_parameter = make_endpoints(state, metadata)
    server.register_endpoint(registration)
    server.register_endpoint(introspection)
    server.register_endpoint(revocation)
    server.register_extension(issuer_parameter)

    # The OAuth endpoints, under the issuer path.
    oauth = Blueprint("oauth", __name__, url_prefix=issuer_path or None)

    @oauth.route("/authorize", methods=["GET", "POST"])
    def authorize():
        # Headless consent: every valid request is approved at once as the configured user.
        state.count("authorization_requests")
        user = User(state.config.user)
        try:
            grant = server.get_consent_grant(end_user=user)
        except OAuth2Error as error:
            # An error redirected to the client carries `iss` too (RFC 9207 §2); authlib's
            # extension only sees responses of `create_authorization_response`.
            response = server.handle_error_response(None, error)
            issuer_parameter.add_issuer_parameter(server, response)
            return response
        return server.create_authorization_response(grant=grant, grant_user=user)

    @oauth.route("/token", methods=["POST"])
    def token():
        state.count("token_requests")
        return server.create_token_response()

    @oauth.route("/register", methods=["POST"])
    def register():
        state.count("registration_requests")
        return server.create_endpoint_response("client_registration")

    @oauth.route("/introspect", methods=["POST"])
    def introspect():
        state.count("introspection_requests")
        return server.create_endpoint_response("introspection")

    @oauth.route("/revoke", methods=["POST"])
    def revoke():
        state.count("revocation_requests")
        return server.create_endpoint_response("revocation")

    @oauth.route("/jwks")
    def jwks():
        state.count("jwks_requests")
        return jsonify(state.keys.jwks())

    # Discovery documents; the one `--discovery` leaves out answers 404 (and is still counted).
    @app.route(get_well_known_url(state.issuer))
    def rfc8414_metadata():
        state.count("oauth_metadata_requests")
        if discovery not in ("oauth", "both"):
            abort(404)
        return jsonify(metadata)

    @app.route(get_oidc_well_known_url(state.issuer))
    def openid_configuration():
        state.count("oidc_metadata_requests")
        if discovery not in ("oidc", "both"):
            abort(404)
        return jsonify(oidc_metadata(state.issuer, state.keys))

    app.register_blueprint(oauth)
    app.register_blueprint(create_admin(state))
    return app


def create_admin(state: State) -> Blueprint:
    """The test-only admin endpoints (no authentication; loopback callers only)."""
    admin = Blueprint("admin", __name__, url_prefix="/admin")

    @admin.before_request
    def loopback_only():
        if not ipaddress.ip_address(request.remote_addr or "0.0.0.0").is_loopback:
            abort(403)

    @admin.route("/rotate", methods=["POST"])
    def rotate():
        body = request.get_json(silent=True) or {}
        alg = body.get("alg") or state.keys.signing_key.alg
        if alg not in SIGNING_ALGORITHMS:
            return jsonify(error=f"alg must be one of {', '.join(SIGNING_ALGORITHMS)}"), 400
        return jsonify(kid=state.keys.rotate(alg, bool(body.get("retire_old", False))))

    @admin.route("/stats")
    def stats():
        with state.lock:
            return jsonify(dict(state.stats))

    @admin.route("/config", methods=["POST"])
    def config():
        body = request.get_json(silent=True) or {}
        with state.lock:
            if "user" in body:
                state.config.user = str(body["user"])
            if "token_lifetime" in body:
                state.config.token_lifetime = int(body["token_lifetime"])
            if "opaque_tokens" in body:
                state.config.opaque_tokens = bool(body["opaque_tokens"])
            if "default_audience" in body:
                state.config.default_audience = str(body["default_audience"])
            if "consent_scopes" in body:
                scopes = body["consent_scopes"]
                state.config.consent_scopes = scope_to_list(scopes) if isinstance(scopes, str) else list(scopes)
            return jsonify(vars(state.config))

    @admin.route("/signing-key")
    def signing_key():
        return jsonify(state.keys.signing_key.as_dict(private=True))

    return admin


# --------------------------------------------------------------------------------------------
# Command line
# --------------------------------------------------------------------------------------------


def parse_arguments(argv: list[str] | None = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, default=0, help="port on 127.0.0.1 (0: any free one)")
    parser.add_argument("--state-dir", type=Path, required=True, help="directory for the request log")
    parser.add_argument("--issuer-path", default="", help="path of the issuer URL, e.g. /realms/test")
    parser.add_argument("--discovery", choices=("oauth", "oidc", "both"), default="both")
    parser.add_argument("--alg", choices=SIGNING_ALGORITHMS, default="RS256")
    parser.add_argument("--token-lifetime", type=int, default=3600, help="access token lifetime, seconds")
    parser.add_argument("--user", default="alice", help="the user the authorization endpoint approves as")
    parser.add_argument("--introspection-client", default="dbai-rs:rs-secret", metavar="ID:SECRET")
    parser.add_argument("--default-audience", default="urn:dbai:none", help="aud when no resource is requested")
    arguments = parser.parse_args(argv)
    path = arguments.issuer_path.strip()
    arguments.issuer_path = ("/" + path.strip("/")) if path.strip("/") else ""
    if ":" not in arguments.introspection_client:
        parser.error("--introspection-client takes ID:SECRET")
    return arguments


def configure_logging(state_dir: Path) -> None:
    """Request log, authlib's debug messages and warnings to DIR/oauth_as.log; nothing to stdout."""
    state_dir.mkdir(parents=True, exist_ok=True)
    handler = logging.FileHandler(state_dir / "oauth_as.log")
    handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s %(message)s"))
    for name in ("werkzeug", "authlib", "oauth_as", "py.warnings"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(logging.DEBUG if name == "authlib" else logging.INFO)
        logger.propagate = False
    logging.captureWarnings(True)
    warnings.simplefilter("default")


def main(argv: list[str] | None = None) -> int:
    arguments = parse_arguments(argv)
    configure_logging(arguments.state_dir)
    allow_eddsa_signing()

    # Bind first: the issuer URL needs the port. The application is attached right after.
    http_server = make_server("127.0.0.1", arguments.port, app=lambda environ, start_response: [], threaded=True)
    issuer = f"http://127.0.0.1:{http_server.server_port}{arguments.issuer_path}"
    state = State(
        issuer,
        KeyRing(arguments.alg),
        Config(
            user=arguments.user,
            token_lifetime=arguments.token_lifetime,
            opaque_tokens=False,
            default_audience=arguments.default_audience,
        ),
    )
    client_id, client_secret = arguments.introspection_client.split(":", 1)
    state.add_client(
        Client(
            client_id,
            client_secret,
            {
                "token_endpoint_auth_method": "client_secret_basic",
                "grant_types": ["client_credentials"],
                "response_types": [],
                "scope": list_to_scope(SCOPES_SUPPORTED),
            },
            introspector=True,
        )
    )
    http_server.app = create_app(state, arguments.issuer_path, arguments.discovery)
    log.info("serving %s", issuer)

    print(f"READY {issuer}", flush=True)
    try:
        http_server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        http_server.server_close()
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except Exception as error:  # noqa: BLE001 - report why it could not start, on stderr
        print(f"oauth_as: {type(error).__name__}: {error}", file=sys.stderr)
        raise
