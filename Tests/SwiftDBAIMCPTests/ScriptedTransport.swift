import Foundation
import Logging
import MCP
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP
import SwiftDBAIChat

/// A transport driven by the test: lines go in through ``deliver(_:)`` and ``endInput()``; what
/// the dispatcher writes is collected and awaited with ``waitForSent(_:)``.
actor ScriptedTransport: Transport {
    nonisolated let logger = Logger(label: "tests")
    private let input: AsyncThrowingStream<Data, any Error>
    private let inputContinuation: AsyncThrowingStream<Data, any Error>.Continuation
    private(set) var sent: [Data] = []
    private var waiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

    init() {
        (input, inputContinuation) = AsyncThrowingStream.makeStream(of: Data.self)
    }

    func connect() async throws {}
    func disconnect() async {}

    func send(_ data: Data) async throws {
        sent.append(data)
        let ready = waiters.filter { $0.count <= sent.count }
        waiters.removeAll { $0.count <= sent.count }
        for waiter in ready { waiter.continuation.resume() }
    }

    nonisolated func receive() -> AsyncThrowingStream<Data, any Error> { input }

    nonisolated func deliver(_ line: String) { inputContinuation.yield(Data(line.utf8)) }
    nonisolated func endInput() { inputContinuation.finish() }

    /// Returns once `count` messages were written.
    func waitForSent(_ count: Int) async {
        guard sent.count < count else { return }
        await withCheckedContinuation { waiters.append((count, $0)) }
    }

    /// The messages written, parsed.
    func sentMessages() throws -> [[String: Value]] {
        try sent.map { data in try #require(try JSONMessageParser.parse(data).objectValue) }
    }
}
