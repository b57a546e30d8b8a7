import Foundation
import Logging
import MCP
import SwiftDBAIMCPKernel
import Testing

/// A transport driven by the test: lines go in through ``deliver(_:)`` and ``endInput()``; what
/// the dispatcher writes is collected and awaited with ``waitForSent(_:)``.
package actor ScriptedTransport: Transport {
    package nonisolated let logger = Logger(label: "tests")
    private let input: AsyncThrowingStream<Data, any Error>
    private let inputContinuation: AsyncThrowingStream<Data, any Error>.Continuation
    package private(set) var sent: [Data] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    package init() {
        (input, inputContinuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    package func connect() async throws {}
    package func disconnect() async {}

    package func send(_ data: Data) async throws {
        sent.append(data)
        let ready = waiters.filter { $0.count <= sent.count }
        waiters.removeAll { $0.count <= sent.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    package nonisolated func receive() -> AsyncThrowingStream<Data, any Error> { input }

    package nonisolated func deliver(_ line: String) { inputContinuation.yield(Data(line.utf8)) }
    package nonisolated func endInput() { inputContinuation.finish() }

    /// Returns once `count` messages were written.
    package func waitForSent(_ count: Int) async {
        guard sent.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    /// The messages written, parsed.
    package func sentMessages() throws -> [[String: Value]] {
        try sent.map { data in try #require(try JSONMessageParser.parse(data).objectValue) }
    }
}
