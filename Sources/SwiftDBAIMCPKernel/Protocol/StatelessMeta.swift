import MCP

/// The protocol fields of a 2026-07-28 request's `params._meta`, checked.
package struct StatelessMeta: Sendable {
    package let version: String
    package let capabilities: [String: Value]
    package let logLevel: LogLevel?
    /// `_meta["io.modelcontextprotocol/clientInfo"]`, as sent (for audit records).
    package var clientInfo: Value? = nil

    /// The fields of a stateless request, nil for a request of the handshake era (its `_meta`
    /// names no protocol version and no client capabilities).
    ///
    /// - Throws: -32602 when a field is missing or malformed, -32022 for a version not served.
    package static func parse(_ params: [String: Value]) throws(ProtocolError) -> StatelessMeta? {
        guard case .object(let meta)? = params["_meta"] else { return nil }
        let versionValue = meta[ProtocolRevision.MetaKey.protocolVersion]
        let capabilitiesValue = meta[ProtocolRevision.MetaKey.clientCapabilities]
        guard versionValue != nil || capabilitiesValue != nil else { return nil }
        guard case .string(let version)? = versionValue else {
            throw .invalidParams(
                "Invalid params: _meta[\"\(ProtocolRevision.MetaKey.protocolVersion)\"] (a string, e.g. \"\(ProtocolRevision.stateless)\") is required in every 2026-07-28 request.")
        }
        guard version == ProtocolRevision.stateless else { throw .unsupportedVersion(version) }
        guard case .object(let capabilities)? = capabilitiesValue else {
            throw .invalidParams(
                "Invalid params: _meta[\"\(ProtocolRevision.MetaKey.clientCapabilities)\"] (an object, {} for none) is required in every 2026-07-28 request.")
        }
        var level: LogLevel?
        if let levelValue = meta[ProtocolRevision.MetaKey.logLevel] {
            guard case .string(let name) = levelValue, let parsed = LogLevel(rawValue: name) else {
                throw .invalidParams(
                    "Invalid params: _meta[\"\(ProtocolRevision.MetaKey.logLevel)\"] must be one of "
                        + LogLevel.allCases.map(\.rawValue).joined(separator: ", ") + ".")
            }
            level = parsed
        }
        return StatelessMeta(
            version: version, capabilities: capabilities, logLevel: level, clientInfo: meta[ProtocolRevision.MetaKey.clientInfo])
    }
}
