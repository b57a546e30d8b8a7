import HTTPTypes

extension HTTPField.Name {
    /// The session of a 2025-11-25 request (`Mcp-Session-Id`).
    static let mcpSessionID = known("Mcp-Session-Id")
    /// The revision a request speaks (`MCP-Protocol-Version`).
    static let mcpProtocolVersion = known("MCP-Protocol-Version")
    /// A 2026-07-28 request's method, repeated from its body (`Mcp-Method`).
    static let mcpMethod = known("Mcp-Method")
    /// A 2026-07-28 request's tool, prompt or resource, repeated from its body (`Mcp-Name`).
    static let mcpName = known("Mcp-Name")
    /// The W3C trace context of the request (`traceparent`).
    static let traceparent = known("traceparent")
    /// The vendors' part of the request's trace context (`tracestate`).
    static let tracestate = known("tracestate")
    /// Asks nginx not to buffer a stream of server-sent events.
    static let accelBuffering = known("X-Accel-Buffering")

    /// A field name written in this file: valid by construction (visible ASCII tokens), which
    /// the tests check once for all.
    private static func known(_ name: String) -> HTTPField.Name {
        guard let field = HTTPField.Name(name) else { preconditionFailure("\(name) is not an HTTP field name") }
        return field
    }
}
