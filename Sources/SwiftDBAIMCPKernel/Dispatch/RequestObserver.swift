import MCP

/// Watches each request the dispatcher answers, for metrics and traces: told when it arrives
/// (refused ones too: an unknown method, a duplicate id, a server stopping) and when its response
/// is written. What a transport refuses before the dispatcher sees it (the HTTP endpoint's 401,
/// 403, 404, 413, header mismatches) is not watched. A dispatcher without one does nothing more than a nil check per request.
package protocol RequestObserver: Sendable {
    /// A request arrives; what is returned is told how it ended.
    func begin(method: String, params: [String: Value]) -> any ObservedRequest
}

/// One request being watched (``RequestObserver``).
package protocol ObservedRequest: Sendable {
    /// The request was answered with `outcome`, in a response of `responseBytes` bytes; a nil
    /// outcome when it was cancelled and nothing was sent.
    func end(_ outcome: Result<Value, any Error>?, responseBytes: Int)
}
