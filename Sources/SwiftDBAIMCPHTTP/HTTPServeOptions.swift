import Foundation

/// How `dbai-mcp --http` serves MCP Streamable HTTP: where, to whom, and its limits.
public struct HTTPServeOptions: Sendable {
    /// Where to listen.
    public var address: HTTPListenAddress
    /// The secret every request carries as `Authorization: Bearer <token>`; nil for none
    /// (loopback only).
    public var authToken: String?
    /// Origins (`scheme://host[:port]`) allowed besides loopback ones, for browser clients.
    public var allowedOrigins: [String]
    /// The most sessions open at once; a new one beyond is refused (503) until one ends.
    public var maxSessions: Int
    /// A session with no request for this long is closed.
    public var sessionIdleTimeout: Duration
    /// The largest request body accepted (413 beyond).
    public var maxRequestBytes: Int
    /// `--oauth-issuer`: every request carries an OAuth access token (besides, or instead of,
    /// the static token); nil for none.
    public var oauth: OAuthProtection?
    /// How long, once a drain begins, the server goes on listening and answering while
    /// `/readyz` says `draining` (`--drain-delay`), so that a balancer that probes it stops
    /// sending first; 0 by default: the listener closes at once (a balancer then tries the next
    /// replica on its refused connection).
    public var drainDelay: Duration = .zero

    /// The defaults of the flags.
    public static let defaultMaxSessions = 32
    public static let defaultSessionIdleTimeout: Duration = .seconds(1800)
    public static let defaultMaxRequestBytes = 4 << 20

    /// Creates options, checking them.
    ///
    /// - Throws: ``HTTPServeError`` for a non-loopback address without a token (or OAuth), an empty
    ///   token, a malformed origin or a limit out of range.
    public init(
        address: HTTPListenAddress, authToken: String? = nil, allowedOrigins: [String] = [],
        maxSessions: Int = defaultMaxSessions, sessionIdleTimeout: Duration = defaultSessionIdleTimeout,
        maxRequestBytes: Int = defaultMaxRequestBytes, oauth: OAuthProtection? = nil
    ) throws(HTTPServeError) {
        guard address.isLoopback || !(authToken ?? "").isEmpty || oauth != nil else {
            throw .openBindWithoutToken(address.description)
        }
        var origins: [String] = []
        for origin in allowedOrigins {
            guard let normalized = HTTPOrigin.normalized(origin) else { throw .invalidOrigin(origin) }
            origins.append(normalized)
        }
        guard maxSessions >= 1 else { throw .invalidLimit("--max-sessions must be at least 1.") }
        guard sessionIdleTimeout >= .seconds(1) else { throw .invalidLimit("--session-idle-timeout must be at least 1 second.") }
        guard maxRequestBytes >= 1024 else { throw .invalidLimit("--max-request-bytes must be at least 1024.") }
        self.address = address
        self.authToken = authToken.flatMap { $0.isEmpty ? nil : $0 }
        self.allowedOrigins = origins
        self.maxSessions = maxSessions
        self.sessionIdleTimeout = sessionIdleTimeout
        self.maxRequestBytes = maxRequestBytes
        self.oauth = oauth
    }
}

/// An HTTP `Origin`: `scheme://host[:port]`.
enum HTTPOrigin {
    /// The origin lowercased, without a trailing slash; nil when it is not one.
    static func normalized(_ text: String) -> String? {
        var origin = HTTPText.lowercased(HTTPText.trimmed(Substring(text)))
        if origin.hasSuffix("/") { origin.removeLast() }
        guard let host = host(of: origin), !host.isEmpty else { return nil }
        return origin
    }

    /// The host of an origin, without brackets or port; nil when it is not `http(s)://host[:port]`
    /// (or another scheme's).
    static func host(of origin: String) -> String? {
        guard let schemeEnd = origin.range(of: "://") else { return nil }
        let scheme = origin[..<schemeEnd.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        let authority = origin[schemeEnd.upperBound...]
        guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@"), !authority.contains("?"),
              !authority.contains("#"), !authority.contains(where: \.isWhitespace) else { return nil }
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            let rest = authority[authority.index(after: close)...]
            guard rest.isEmpty || (rest.hasPrefix(":") && rest.dropFirst().allSatisfy(\.isNumber) && rest.count > 1) else { return nil }
            return String(authority[authority.index(after: authority.startIndex)..<close])
        }
        let parts = authority.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2 else { return nil }
        if parts.count == 2 { guard !parts[1].isEmpty, parts[1].allSatisfy(\.isNumber) else { return nil } }
        return String(parts[0])
    }
}
