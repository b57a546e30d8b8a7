import MCP

/// Watches each request the dispatcher answers, for metrics and traces: told when it arrives
/// (refused ones too: an unknown method, a duplicate id, a server stopping), around its handler,
/// and when its response is written. What a transport refuses before the dispatcher sees it (the
/// HTTP endpoint's 401, 403, 404, 413, header mismatches) is not watched. A dispatcher without
/// one does nothing more than a nil check per request.
package protocol RequestObserver: Sendable {
    /// A request arrives; what is returned is told how it ended.
    func begin(_ request: ArrivingRequest) -> any ObservedRequest
}

/// What the dispatcher knows of a request when it arrives.
package struct ArrivingRequest: Sendable {
    package let id: ID
    package let method: String
    package let params: [String: Value]
    /// The MCP revision it is served under: its `_meta`'s (stateless), or the one its session
    /// negotiated; nil when not known (a request refused before, `initialize` itself).
    package let protocolVersion: String?

    package init(id: ID, method: String, params: [String: Value], protocolVersion: String? = nil) {
        self.id = id
        self.method = method
        self.params = params
        self.protocolVersion = protocolVersion
    }
}

/// One request being watched (``RequestObserver``).
package protocol ObservedRequest: Sendable {
    /// Runs the request's handler: a tracer makes its span the current one here, so that what
    /// the handler does (statements, model calls) is traced under it.
    func during(_ handler: @Sendable () async throws -> Value) async throws -> Value

    /// The request was answered with `outcome`, in a response of `responseBytes` bytes; a nil
    /// outcome when it was cancelled and nothing was sent.
    func end(_ outcome: Result<Value, any Error>?, responseBytes: Int)
}

extension ObservedRequest {
    package func during(_ handler: @Sendable () async throws -> Value) async throws -> Value {
        try await handler()
    }
}

/// Several observers, told in order (metrics, then traces): a request's handler runs inside each
/// one's ``ObservedRequest/during(_:)``.
package struct RequestObserverList: RequestObserver {
    package let observers: [any RequestObserver]

    /// The observers given, as one; nil when there is none (a dispatcher then watches nothing).
    package static func combining(_ observers: [any RequestObserver]) -> (any RequestObserver)? {
        switch observers.count {
        case 0: nil
        case 1: observers[0]
        default: RequestObserverList(observers: observers)
        }
    }

    package func begin(_ request: ArrivingRequest) -> any ObservedRequest {
        Observations(list: observers.map { $0.begin(request) })
    }

    private struct Observations: ObservedRequest {
        let list: [any ObservedRequest]

        func during(_ handler: @Sendable () async throws -> Value) async throws -> Value {
            try await nested(list[...], handler)
        }

        private func nested(
            _ remaining: ArraySlice<any ObservedRequest>, _ handler: @Sendable () async throws -> Value
        ) async throws -> Value {
            guard let first = remaining.first else { return try await handler() }
            let rest = remaining.dropFirst()
            return try await first.during { try await nested(rest, handler) }
        }

        func end(_ outcome: Result<Value, any Error>?, responseBytes: Int) {
            for observation in list { observation.end(outcome, responseBytes: responseBytes) }
        }
    }
}
