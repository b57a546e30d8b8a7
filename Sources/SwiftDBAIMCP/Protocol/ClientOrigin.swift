import Crypto
import Foundation
import MCP

/// How a request reached the server, as an audit record names its client: the transport, and
/// for HTTP the session and a digest of the bearer token (never the token).
struct ClientOrigin: Sendable, Hashable {
    /// `stdio` or `http`.
    let transport: String
    /// The `Mcp-Session-Id` of a handshake-era HTTP session; nil over stdio and for stateless
    /// requests.
    var session: String?
    /// The SHA-256 of the bearer token the request was accepted with (hexadecimal); nil without
    /// `--auth-token-env`.
    var tokenSHA256: String?

    /// A request read from standard input.
    static let stdio = ClientOrigin(transport: "stdio")

    /// A request that came over HTTP, in a session or not, accepted with `token` (nil: none).
    static func http(session: String?, tokenSHA256: String?) -> ClientOrigin {
        ClientOrigin(transport: "http", session: session, tokenSHA256: tokenSHA256)
    }

    /// The hexadecimal SHA-256 of a token.
    static func digest(ofToken token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }
}
