/// A transport's error that tells the dispatcher whether the client is gone: when nothing more
/// can reach it, the session's work in flight stops (writes roll back). The dispatcher knows no
/// transport; each transport's errors say this themselves.
package protocol TransportFailure: Error, CustomStringConvertible {
    /// True when the client can receive nothing more (its end of the connection is closed).
    var clientIsGone: Bool { get }
}

extension StdioTransportError: TransportFailure {
    /// The output was closed: the client has exited or stopped reading.
    package var clientIsGone: Bool {
        if case .outputClosed = self { return true }
        return false
    }
}
