#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// An error from ``FastStdioTransport``.
///
/// `send(_:)` throws it directly. A read failure ends the stream from `receive()` with
/// ``readFailed(errno:)``.
public enum StdioTransportError: Error, Sendable, Hashable, CustomStringConvertible {
    /// `send(_:)` was called before `connect()` or after `disconnect()`.
    case notConnected

    /// `connect()` was called after `disconnect()`. A transport is used once; create a new one.
    case alreadyDisconnected

    /// The output is gone: the reading end of the pipe was closed (`EPIPE`) or the descriptor
    /// is not open (`EBADF`). The client has most likely exited; nothing more can be sent.
    case outputClosed(errno: Int32)

    /// Writing to the output failed for another reason; `errno` says which.
    case writeFailed(errno: Int32)

    /// Reading the input failed; `errno` says why. The message stream ends with this error.
    case readFailed(errno: Int32)

    /// What happened, with the system's explanation of the error number.
    public var description: String {
        switch self {
        case .notConnected:
            return "The stdio transport is not connected: call connect() before sending, "
                + "and do not send after disconnect()."
        case .alreadyDisconnected:
            return "The stdio transport was disconnected and cannot be connected again; "
                + "create a new transport."
        case .outputClosed(let code):
            return "The output was closed (\(Self.explain(code))); the client has probably "
                + "exited, so the message was not delivered."
        case .writeFailed(let code):
            return "Writing a message to the output failed (\(Self.explain(code)))."
        case .readFailed(let code):
            return "Reading messages from the input failed (\(Self.explain(code))); "
                + "no more messages will arrive."
        }
    }

    /// `strerror` text and the number, e.g. `Broken pipe, errno 32`.
    private static func explain(_ code: Int32) -> String {
        guard let text = strerror(code) else { return "errno \(code)" }
        return "\(String(cString: text)), errno \(code)"
    }
}
