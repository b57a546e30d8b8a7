import Foundation

/// What the resource server checks every access token against (`--oauth-issuer`, `--public-url`).
public struct OAuthResourceSettings: Sendable {
    /// The authorization server's issuer identifier: a token's `iss` must equal it exactly, and
    /// its metadata is discovered from it (RFC 8414, then OpenID Connect discovery).
    public let issuer: String
    /// The canonical URI of the protected resource, the MCP endpoint as clients reach it
    /// (`https://db.example.com/mcp`): a token's `aud` must contain it (RFC 8707, RFC 9068).
    public let resource: String
    /// The clock skew allowed on `exp`, `nbf` and `iat`.
    public var leeway: Duration = .seconds(60)
    /// The JOSE `typ` header values a JWT access token may carry, lowercased, without
    /// `application/`. RFC 9068: `at+jwt`; some identity providers sign access tokens `JWT`,
    /// which an operator admits with `--oauth-token-type jwt`.
    public var acceptedTokenTypes: Set<String> = ["at+jwt"]
    /// The confidential client the server introspects opaque tokens as (RFC 7662); nil: only
    /// JWT access tokens are accepted.
    public var introspectionClient: ClientCredentials?
    /// The least time between two key-set fetches caused by a token signed with a key the
    /// cached set does not hold (key rotation), so that forged `kid`s cannot make the server
    /// hammer the authorization server.
    public var keyRefetchInterval: Duration = .seconds(10)
    /// How long a fetched key set is used before the next token makes the server fetch it again.
    public var keySetLifetime: Duration = .seconds(3600)
    /// How long a verified token is remembered (never past its `exp`), so that the next call
    /// with it costs a hash instead of a signature check.
    public var verifiedTokenLifetime: Duration = .seconds(300)
    /// How long an introspection answer is reused: short, since revocation shows only there.
    public var introspectionLifetime: Duration = .seconds(30)

    /// Settings for tokens of `issuer` meant for `resource`.
    ///
    /// - Throws: ``OAuthConfigurationError`` when either is not an absolute `https` URL (plain
    ///   `http` is accepted on a loopback host only, for local testing) or has a query or fragment.
    public init(issuer: String, resource: String) throws(OAuthConfigurationError) {
        try Self.check(issuer, flag: "--oauth-issuer")
        try Self.check(resource, flag: "--public-url")
        self.issuer = issuer
        self.resource = resource
    }

    private static func check(_ text: String, flag: String) throws(OAuthConfigurationError) {
        guard let components = URLComponents(string: text), components.scheme != nil, let host = components.host, !host.isEmpty else {
            throw .invalidURL(flag: flag, value: text, reason: "it is not an absolute URL")
        }
        guard components.query == nil, components.fragment == nil else {
            throw .invalidURL(flag: flag, value: text, reason: "it has a query or a fragment")
        }
        guard OAuthURL.isSecure(text) else {
            throw .invalidURL(flag: flag, value: text, reason: "it must be https (plain http only on a loopback host)")
        }
    }
}

/// A confidential client's credentials (`client_secret_basic`). Its description never shows
/// the secret.
public struct ClientCredentials: Sendable, CustomStringConvertible {
    /// The client's `client_id`.
    public let id: String
    /// The client's secret.
    public let secret: String

    /// Credentials of the client `id`.
    public init(id: String, secret: String) {
        self.id = id
        self.secret = secret
    }

    public var description: String { "client \(id) (secret not shown)" }
}

/// Why the resource server's settings cannot be used.
public enum OAuthConfigurationError: Error, Sendable, CustomStringConvertible {
    /// A flag's URL cannot be used, and why.
    case invalidURL(flag: String, value: String, reason: String)

    public var description: String {
        switch self {
        case .invalidURL(let flag, let value, let reason): "\(flag) \(value) cannot be used: \(reason)."
        }
    }
}
