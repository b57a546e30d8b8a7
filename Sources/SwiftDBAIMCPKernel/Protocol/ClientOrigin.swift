import Crypto
import Foundation
import MCP
import SwiftDBAIPrimitives

/// How a request reached the server, as an audit record names its client: the transport, and
/// for HTTP the session, a digest of the static bearer token (never the token), or the caller
/// an OAuth access token identified.
package struct ClientOrigin: Sendable, Hashable {
    /// `stdio` or `http`.
    package let transport: String
    /// The `Mcp-Session-Id` of a handshake-era HTTP session; nil over stdio and for stateless
    /// requests.
    package var session: String?
    /// The SHA-256 of the bearer token the request was accepted with (hexadecimal); nil without
    /// `--auth-token-env`.
    package var tokenSHA256: String?
    /// The caller an OAuth access token identified (`--oauth-issuer`); nil otherwise. Their
    /// scopes narrow what the request may do; nil means no narrowing (stdio, the static token).
    package var caller: CallerIdentity?

    /// A request read from standard input.
    package static let stdio = ClientOrigin(transport: "stdio")

    /// A request that came over HTTP, in a session or not, accepted with `token` (nil: none).
    package static func http(session: String?, tokenSHA256: String?, caller: CallerIdentity? = nil) -> ClientOrigin {
        ClientOrigin(transport: "http", session: session, tokenSHA256: tokenSHA256, caller: caller)
    }

    /// The hexadecimal SHA-256 of a token.
    package static func digest(ofToken token: String) -> String {
        Hexadecimal.string(SHA256.hash(data: Data(token.utf8)))
    }
}
