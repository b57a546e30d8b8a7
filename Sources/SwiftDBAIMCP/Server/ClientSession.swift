import MCP

/// What the server knows about the connected client: its capabilities (from `initialize`) and
/// the log level it asked for.
actor ClientSession {
    private(set) var capabilities: Client.Capabilities?
    private(set) var logLevel: LogLevel = .warning

    func initialized(with capabilities: Client.Capabilities) {
        self.capabilities = capabilities
    }

    func setLogLevel(_ level: LogLevel) {
        logLevel = level
    }

    /// True when the client declared form elicitation.
    var supportsElicitation: Bool {
        capabilities?.elicitation != nil
    }

    /// True when the client declared sampling (its own model can answer `ask`).
    var supportsSampling: Bool {
        capabilities?.sampling != nil
    }

    /// True when a message at `level` should be sent to the client.
    func wants(_ level: LogLevel) -> Bool {
        let order = LogLevel.allCases
        return (order.firstIndex(of: level) ?? 0) >= (order.firstIndex(of: logLevel) ?? 0)
    }
}
