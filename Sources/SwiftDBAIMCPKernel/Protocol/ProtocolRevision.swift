import MCP

/// The MCP revisions the server speaks, and the `_meta` keys of the stateless one.
///
/// - **2026-07-28** (stateless): no `initialize`; every request carries its protocol version and
///   the client's capabilities in `params._meta`, and every result says `resultType`.
/// - **2025-11-25 and older** (handshake): `initialize` negotiates a version and the client's
///   capabilities once, for the stdio process or the HTTP session.
///
/// One server serves both at once: a request whose `_meta` names a protocol version is served
/// statelessly; any other belongs to the handshake of its process or session.
package enum ProtocolRevision {
    /// The stateless revision.
    package static let stateless = "2026-07-28"
    /// The revisions negotiated by `initialize`, newest first.
    package static let handshake = ["2025-11-25", "2025-06-18", "2025-03-26", "2024-11-05"]
    /// Every revision served, newest first (the `supported` list of -32022).
    package static let supported = [stateless] + handshake

    /// The version an `initialize` settles on: the client's when served, else the newest.
    package static func negotiated(_ requested: String) -> String {
        handshake.contains(requested) ? requested : handshake[0]
    }

    /// The reserved `_meta` keys of the stateless revision.
    package enum MetaKey {
        package static let protocolVersion = "io.modelcontextprotocol/protocolVersion"
        package static let clientCapabilities = "io.modelcontextprotocol/clientCapabilities"
        package static let clientInfo = "io.modelcontextprotocol/clientInfo"
        package static let logLevel = "io.modelcontextprotocol/logLevel"
        package static let serverInfo = "io.modelcontextprotocol/serverInfo"
    }
}
