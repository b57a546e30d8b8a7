import Foundation
import SwiftDBAIPrimitives
import Testing

/// Records the order in which turns start and end.
actor TurnLog {
    private(set) var events: [String] = []
    func append(_ event: String) { events.append(event) }
}

@Suite("TurnQueue: first come, first served; shared together, exclusive alone", .timeLimit(.minutes(1)))
struct TurnQueueTests {
    @Test("shared turns run together")
    func sharedTogether() async throws {
        let queue = TurnQueue()
        let first = queue.take(.shared)
        let second = queue.take(.shared)
        try await first.begin()
        // The second begins while the first is held; if shared turns excluded each other it would
        // wait forever: the deadline turns that into a failure (and cancels the wait).
        let began = await withTaskGroup(of: Bool.self) { group in
            group.addTask { (try? await second.begin()) != nil && !Task.isCancelled }
            group.addTask {
                try? await Task.sleep(for: .seconds(30))
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        #expect(began, "a shared turn waited for another shared turn")
        first.end()
        second.end()
    }

    @Test("an exclusive turn waits for the turns before it, and the turns after it wait for it")
    func exclusiveAlone() async throws {
        let queue = TurnQueue()
        let log = TurnLog()
        let reader = queue.take(.shared)
        try await reader.begin()
        let writer = queue.take(.exclusive)
        let lateReader = queue.take(.shared)
        let writing = Task {
            try await writer.begin()
            await log.append("write")
            writer.end()
        }
        let reading = Task {
            try await lateReader.begin()
            await log.append("late read")
            lateReader.end()
        }
        await log.append("first read ends")
        reader.end()
        try await writing.value
        try await reading.value
        #expect(await log.events == ["first read ends", "write", "late read"])
    }

    @Test("exclusive turns start in the order they were taken")
    func fifo() async throws {
        let queue = TurnQueue()
        let log = TurnLog()
        let gate = queue.take(.exclusive)
        try await gate.begin()
        let turns = (0..<20).map { _ in queue.take(.exclusive) }
        let tasks = turns.enumerated().reversed().map { index, turn in
            Task {
                try await turn.begin()
                await log.append("\(index)")
                turn.end()
            }
        }
        gate.end()
        for task in tasks { try await task.value }
        #expect(await log.events == (0..<20).map(String.init))
    }

    @Test("at most maxShared shared turns run at once")
    func sharedLimit() async throws {
        let queue = TurnQueue(maxShared: 2)
        let first = queue.take(.shared)
        let second = queue.take(.shared)
        let third = queue.take(.shared)
        try await first.begin()
        try await second.begin()
        let log = TurnLog()
        let waiting = Task {
            try await third.begin()
            await log.append("third")
            third.end()
        }
        await log.append("two running")
        first.end()
        try await waiting.value
        second.end()
        #expect(await log.events == ["two running", "third"])
    }

    @Test("a cancelled waiting turn gives up its place and lets the next one go")
    func cancellation() async throws {
        let queue = TurnQueue()
        let holder = queue.take(.exclusive)
        try await holder.begin()
        let cancelled = queue.take(.exclusive)
        let next = queue.take(.shared)
        let waiting = Task { try await cancelled.begin() }
        waiting.cancel()
        await #expect(throws: CancellationError.self) { try await waiting.value }
        holder.end()
        try await next.begin()  // not held up by the cancelled turn
        next.end()
        cancelled.end()  // ending a given-up turn does nothing
    }
}
