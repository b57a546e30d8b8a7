import Foundation
import Logging
import MCP

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The MCP stdio transport without a latency floor: newline-delimited JSON-RPC over two file
/// descriptors, standard input and output by default.
///
/// The SDK's `StdioTransport` makes its descriptors non-blocking and sleeps 10 ms whenever no
/// input is waiting, so every request waits up to 10 ms before it is even read. This transport
/// reads on a dedicated thread that blocks in `read(2)` and hands each line to ``receive()`` as
/// soon as its `\n` arrives.
///
/// ```swift
/// let server = Server(name: "dbai-mcp", version: "1.0.0", capabilities: capabilities)
/// try await server.start(transport: FastStdioTransport(logger: logger))
/// await server.waitUntilCompleted()
/// ```
///
/// Framing follows the MCP stdio specification: one message per line. Incoming lines have a
/// trailing `\r` stripped and blank lines skipped; an unterminated last line is delivered at end
/// of input, then the stream finishes. Outgoing messages get one `\n` appended and are written
/// with as few `write(2)` calls as the kernel allows, never interleaved.
///
/// The transport does not own its descriptors and never closes them. At end of input the reader
/// thread exits. After ``disconnect()`` it exits the next time `read(2)` returns (data or end of
/// input); until then it stays blocked in `read(2)`, which is harmless in a process about to exit.
/// `connect()` ignores `SIGPIPE` for the whole process, so a vanished client surfaces as
/// ``StdioTransportError/outputClosed(errno:)`` rather than killing the server; and it watches the
/// output, so that the message stream ends with that error as soon as the client stops reading,
/// not only when the next message fails to go out (see ``OutputWatcher``).
public actor FastStdioTransport: Transport {
    /// Where the transport logs connection events and failures; never standard output.
    public nonisolated let logger: Logger

    private let input: CInt
    private let output: CInt
    private let messages: AsyncThrowingStream<Data, any Error>
    private let continuation: AsyncThrowingStream<Data, any Error>.Continuation
    private var state = State.idle
    private var watcher: OutputWatcher?

    private enum State {
        case idle
        case connected
        case disconnected
    }

    /// Size of the buffer each `read(2)` fills.
    private static let readBufferSize = 64 * 1024

    /// Creates a transport over two open file descriptors. Nothing is read before ``connect()``.
    ///
    /// - Parameters:
    ///   - input: Descriptor messages are read from; standard input by default.
    ///   - output: Descriptor messages are written to; standard output by default.
    ///   - logger: Receives transport events. The default discards them; pass a logger whose
    ///     handler writes to standard error, never to standard output, which carries the protocol.
    public init(
        input: CInt = STDIN_FILENO,
        output: CInt = STDOUT_FILENO,
        logger: Logger = Logger(label: "swiftdbai.mcp.stdio", factory: { _ in SwiftLogNoOpLogHandler() })
    ) {
        self.input = input
        self.output = output
        self.logger = logger
        (messages, continuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    /// Starts the reader thread and ignores `SIGPIPE` for the process. Calling it again while
    /// connected does nothing.
    ///
    /// - Throws: ``StdioTransportError/alreadyDisconnected`` after ``disconnect()``.
    public func connect() async throws {
        switch state {
        case .connected:
            return
        case .disconnected:
            throw StdioTransportError.alreadyDisconnected
        case .idle:
            break
        }
        // A closed stdout must come back from write(2) as EPIPE, not end the process.
        signal(SIGPIPE, SIG_IGN)
        state = .connected

        let input = self.input
        let continuation = self.continuation
        let logger = self.logger
        let reader = Thread {
            Self.readMessages(from: input, into: continuation, logger: logger)
        }
        reader.name = "FastStdioTransport.reader"
        reader.start()
        let watcher = OutputWatcher(output: output)
        self.watcher = watcher
        let thread = Thread {
            watcher.run {
                logger.debug("stdio transport output closed by the client")
                continuation.finish(throwing: StdioTransportError.outputClosed(errno: EPIPE))
            }
        }
        thread.name = "FastStdioTransport.output-watcher"
        thread.start()
        logger.debug("stdio transport connected", metadata: ["input": "\(input)", "output": "\(output)"])
    }

    /// Finishes the stream from ``receive()``; later ``send(_:)`` calls throw.
    ///
    /// The reader thread stops delivering at once and exits the next time its blocked `read(2)`
    /// returns. Calling it again does nothing.
    public func disconnect() async {
        guard state != .disconnected else { return }
        state = .disconnected
        watcher?.stop()
        continuation.finish()
        logger.debug("stdio transport disconnected")
    }

    /// Writes `message` followed by `\n` (unless it already ends with one) to the output.
    ///
    /// The bytes go out as one buffer, normally in one `write(2)`; partial writes and `EINTR` are
    /// retried. Calls are serialized by the actor, so messages never interleave.
    ///
    /// - Parameter message: One JSON-RPC message or batch, without embedded newlines.
    /// - Throws: ``StdioTransportError/notConnected`` outside `connect()`…`disconnect()`,
    ///   ``StdioTransportError/outputClosed(errno:)`` when the output is gone, and
    ///   ``StdioTransportError/writeFailed(errno:)`` for other write errors.
    public func send(_ message: Data) async throws {
        guard state == .connected else { throw StdioTransportError.notConnected }
        let framed: Data
        if message.last == UInt8(ascii: "\n") {
            framed = message
        } else {
            var buffer = Data(capacity: message.count + 1)
            buffer.append(message)
            buffer.append(UInt8(ascii: "\n"))
            framed = buffer
        }
        let output = self.output
        try framed.withUnsafeBytes { bytes in
            try Self.writeAll(bytes, to: output)
        }
        logger.trace("message sent", metadata: ["bytes": "\(framed.count)"])
    }

    /// The incoming messages, one per line, in order.
    ///
    /// The same stream is returned on every call; iterate it from one task only. It finishes at
    /// end of input or on ``disconnect()``, and throws ``StdioTransportError/readFailed(errno:)``
    /// if reading fails.
    public func receive() -> AsyncThrowingStream<Data, any Error> {
        messages
    }

    // MARK: - Reader thread

    /// Reads `input` until end of input, a read error, or until nobody listens any more.
    ///
    /// Runs on the dedicated reader thread; blocks in `read(2)` between messages.
    private static func readMessages(
        from input: CInt,
        into continuation: AsyncThrowingStream<Data, any Error>.Continuation,
        logger: Logger
    ) {
        let buffer = UnsafeMutablePointer<UInt8>.allocate(capacity: readBufferSize)
        defer { buffer.deallocate() }
        var lines = LineBuffer()
        var listening = true

        while listening {
            let count = read(input, buffer, readBufferSize)
            if count > 0 {
                lines.append(UnsafeBufferPointer(start: buffer, count: count)) { message in
                    logger.trace("message received", metadata: ["bytes": "\(message.count)"])
                    if case .terminated = continuation.yield(message) {
                        listening = false
                    }
                }
            } else if count == 0 {
                if let last = lines.finish() {
                    continuation.yield(last)
                }
                logger.debug("stdio transport reached end of input")
                continuation.finish()
                return
            } else {
                let code = errno
                if code == EINTR {
                    continue
                }
                if code == EAGAIN || code == EWOULDBLOCK {
                    // The descriptor was made non-blocking by someone else: block in poll(2)
                    // until it is readable instead of spinning or sleeping.
                    if let failure = waitUntilReady(input, for: POLLIN) {
                        finish(continuation, failing: failure, logger: logger)
                        return
                    }
                    continue
                }
                finish(continuation, failing: code, logger: logger)
                return
            }
        }
        logger.debug("stdio transport reader stopped after disconnect")
    }

    private static func finish(
        _ continuation: AsyncThrowingStream<Data, any Error>.Continuation,
        failing code: Int32,
        logger: Logger
    ) {
        let error = StdioTransportError.readFailed(errno: code)
        logger.error("stdio transport read failed", metadata: ["error": "\(error)"])
        continuation.finish(throwing: error)
    }

    // MARK: - Writing

    /// Writes every byte of `bytes` to `output`, retrying partial writes and `EINTR`.
    private static func writeAll(_ bytes: UnsafeRawBufferPointer, to output: CInt) throws(StdioTransportError) {
        guard let base = bytes.baseAddress else { return }
        var written = 0
        while written < bytes.count {
            let result = write(output, base + written, bytes.count - written)
            if result > 0 {
                written += result
                continue
            }
            // write(2) returns 0 only for a zero-length request; treat it as an I/O error
            // rather than retrying forever.
            let code = result == 0 ? EIO : errno
            switch code {
            case EINTR:
                continue
            case EPIPE, EBADF:
                throw .outputClosed(errno: code)
            default:
                if code == EAGAIN || code == EWOULDBLOCK {
                    if let failure = waitUntilReady(output, for: POLLOUT) {
                        throw .writeFailed(errno: failure)
                    }
                    continue
                }
                throw .writeFailed(errno: code)
            }
        }
    }

    /// Blocks until `descriptor` is ready for `events` (`POLLIN` or `POLLOUT`).
    ///
    /// - Returns: `nil` when ready (or interrupted; the caller retries), else the `errno`.
    private static func waitUntilReady(_ descriptor: CInt, for events: Int32) -> Int32? {
        var request = pollfd(fd: descriptor, events: Int16(events), revents: 0)
        if poll(&request, 1, -1) >= 0 {
            // Errors and hang-ups show up in the next read or write.
            return nil
        }
        let code = errno
        return code == EINTR ? nil : code
    }
}
