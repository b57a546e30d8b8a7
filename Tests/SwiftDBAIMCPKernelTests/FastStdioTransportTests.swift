import Foundation
@testable import SwiftDBAIMCPKernel
import Testing

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// Drives ``FastStdioTransport`` through `pipe(2)` pairs; nothing touches the real stdin/stdout.
///
/// Ordering rule for descriptors: a pipe's read end is closed only after the transport's stream
/// has finished at end of input, because only then has the reader thread stopped calling
/// `read(2)` on it (a closed number could otherwise be reused by a parallel test's pipe).
@Suite(.timeLimit(.minutes(1)))
struct FastStdioTransportTests {
    // MARK: Reading

    @Test("a message split across writes arrives as one line")
    func messageSplitAcrossWritesArrivesAsOneLine() async throws {
        let messages = try await receivedMessages(writing: [
            #"{"jsonrpc":"2.0","#,
            #""id":1,"method":"#,
            #""ping"}"#,
            "\n",
        ])
        #expect(messages == [#"{"jsonrpc":"2.0","id":1,"method":"ping"}"#])
    }

    @Test("several lines in one write arrive in order")
    func severalLinesInOneWriteArriveInOrder() async throws {
        let messages = try await receivedMessages(writing: [
            #"{"id":1}"# + "\n" + #"{"id":2}"# + "\n" + #"{"id":3}"# + "\n"
        ])
        #expect(messages == [#"{"id":1}"#, #"{"id":2}"#, #"{"id":3}"#])
    }

    @Test("CRLF is stripped and blank lines are skipped")
    func crlfIsStrippedAndBlankLinesAreSkipped() async throws {
        let messages = try await receivedMessages(writing: [
            "\n\r\n   \n" + #"{"a":1}"# + "\r\n\t \r\n\n" + #"{"b":"x\ry"}"# + "\r\n \n"
        ])
        #expect(messages == [#"{"a":1}"#, #"{"b":"x\ry"}"#])
    }

    @Test("the end of input delivers an unterminated last line, then finishes")
    func endOfInputDeliversUnterminatedLastLineAndFinishes() async throws {
        let messages = try await receivedMessages(writing: [#"{"id":1}"# + "\n" + #"{"id":2}"#])
        #expect(messages == [#"{"id":1}"#, #"{"id":2}"#])
    }

    @Test("the end of input drops a remainder of only whitespace")
    func endOfInputDropsWhitespaceOnlyRemainder() async throws {
        let messages = try await receivedMessages(writing: [#"{"id":1}"# + "\n  \t\r"])
        #expect(messages == [#"{"id":1}"#])
    }

    @Test("empty input finishes without messages")
    func emptyInputFinishesWithoutMessages() async throws {
        let messages = try await receivedMessages(writing: [])
        #expect(messages.isEmpty)
    }

    @Test("a 10 MB line arrives intact")
    func tenMegabyteLineArrivesIntact() async throws {
        let payloadSize = 10 * 1024 * 1024
        var big = Data(#"{"payload":""#.utf8)
        big.append(Data(repeating: UInt8(ascii: "x"), count: payloadSize))
        big.append(Data(#""}"#.utf8))
        let after = Data(#"{"after":true}"#.utf8)

        var input = big
        input.append(UInt8(ascii: "\n"))
        input.append(after)
        input.append(UInt8(ascii: "\n"))

        let messages = try await receivedData(writing: [input])
        #expect(messages.count == 2)
        #expect(messages.first?.count == big.count)
        // Compared outside #expect so a failure does not print ten megabytes.
        let bigLineIntact = messages.first == big
        #expect(bigLineIntact)
        #expect(messages.last == after)
    }

    @Test("100,000 short lines arrive in order")
    func hundredThousandShortLinesArriveInOrder() async throws {
        let lineCount = 100_000
        var input = Data()
        for index in 0..<lineCount {
            input.append(contentsOf: Array(#"{"id":\#(index)}"#.utf8))
            input.append(UInt8(ascii: "\n"))
        }
        let messages = try await receivedData(writing: [input])
        #expect(messages.count == lineCount)
        let outOfOrder = messages.enumerated().first { index, message in
            message != Data(#"{"id":\#(index)}"#.utf8)
        }
        #expect(outOfOrder == nil)
    }

    @Test("a read error finishes the stream with that error")
    func readErrorFinishesStreamThrowing() async throws {
        let pipe = try TestPipe()
        // Reading the write end of a pipe fails with EBADF.
        let transport = FastStdioTransport(input: pipe.writeEnd, output: -1)
        try await transport.connect()
        await #expect(throws: StdioTransportError.readFailed(errno: EBADF)) {
            for try await _ in await transport.receive() {}
        }
        pipe.closeBothEnds()
    }

    @Test("connecting twice starts one reader")
    func connectingTwiceStartsOneReader() async throws {
        let pipe = try TestPipe()
        let transport = FastStdioTransport(input: pipe.readEnd, output: -1)
        try await transport.connect()
        try await transport.connect()
        // With two readers, chunks of this input would be split between them and corrupt lines.
        let lines = (0..<2_000).map { #"{"id":\#($0),"padding":"\#(String(repeating: "p", count: 200))"}"# }
        async let writing: Void = writeInBackground([Data(lines.joined(separator: "\n").utf8)], to: pipe.writeEnd)
        let messages = try await collect(transport).map { String(decoding: $0, as: UTF8.self) }
        try await writing
        close(pipe.readEnd)
        #expect(messages.count == lines.count)
        let firstMismatch = zip(messages, lines).enumerated().first { $1.0 != $1.1 }?.offset
        #expect(firstMismatch == nil)
    }

    @Test func disconnectFinishesStream() async throws {
        let pipe = try TestPipe()
        let transport = FastStdioTransport(input: pipe.readEnd, output: -1)
        try await transport.connect()
        await transport.disconnect()
        let messages = try await collect(transport)
        #expect(messages.isEmpty)
        await #expect(throws: StdioTransportError.alreadyDisconnected) {
            try await transport.connect()
        }
        // The reader may still be blocked in read(2); end of input lets it exit. Its read end
        // stays open on purpose: there is no signal for when that thread has returned.
        close(pipe.writeEnd)
    }

    // MARK: Writing

    @Test(arguments: [
        (#"{"jsonrpc":"2.0","id":1,"result":{}}"#, #"{"jsonrpc":"2.0","id":1,"result":{}}"# + "\n"),
        (#"{"id":2}"# + "\n", #"{"id":2}"# + "\n"),
        ("", "\n"),
    ])
    func sendWritesMessageAndOneNewline(message: String, expected: String) async throws {
        let output = try TestPipe()
        try await withConnectedTransport(output: output.writeEnd) { transport in
            try await transport.send(Data(message.utf8))
        }
        close(output.writeEnd)
        #expect(try readToEnd(output.readEnd) == Data(expected.utf8))
        close(output.readEnd)
    }

    @Test func consecutiveSendsDoNotInterleave() async throws {
        let output = try TestPipe()
        let messages = (0..<50).map { #"{"id":\#($0),"body":"\#(String(repeating: "b", count: 4_000))"}"# }
        try await withConnectedTransport(output: output.writeEnd) { transport in
            async let reading = readInBackground(output.readEnd)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for message in messages {
                    group.addTask { try await transport.send(Data(message.utf8)) }
                }
                try await group.waitForAll()
            }
            close(output.writeEnd)
            let written = String(decoding: try await reading, as: UTF8.self)
            let lines = written.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            #expect(lines.last == "")
            #expect(Set(lines.dropLast()) == Set(messages))
        }
        close(output.readEnd)
    }

    @Test func sendAfterReaderClosedThrowsOutputClosed() async throws {
        let output = try TestPipe()
        close(output.readEnd)
        // The stream ends at end of input or, first, because the output is gone: either is right.
        try await withConnectedTransport(output: output.writeEnd, outputMayClose: true) { transport in
            await #expect(throws: StdioTransportError.outputClosed(errno: EPIPE)) {
                try await transport.send(Data(#"{"id":1}"#.utf8))
            }
        }
        close(output.writeEnd)
    }

    @Test func closedOutputEndsTheMessageStreamWhileInputStaysOpen() async throws {
        let input = try TestPipe()
        let output = try TestPipe()
        let transport = FastStdioTransport(input: input.readEnd, output: output.writeEnd)
        try await transport.connect()
        close(output.readEnd)  // the client stops reading, but keeps its end of our input open
        await #expect(throws: StdioTransportError.outputClosed(errno: EPIPE)) {
            for try await _ in await transport.receive() {}
        }
        await transport.disconnect()
        close(input.writeEnd)  // lets the reader thread see end of input and exit; its read end stays open
        close(output.writeEnd)
    }

    @Test func sendToClosedDescriptorThrowsOutputClosed() async throws {
        try await withConnectedTransport(output: -1) { transport in
            await #expect(throws: StdioTransportError.outputClosed(errno: EBADF)) {
                try await transport.send(Data(#"{"id":1}"#.utf8))
            }
        }
    }

    @Test func sendOutsideConnectionThrowsNotConnected() async throws {
        let transport = FastStdioTransport(input: -1, output: -1)
        await #expect(throws: StdioTransportError.notConnected) {
            try await transport.send(Data(#"{"id":1}"#.utf8))
        }
        await transport.disconnect()
        await #expect(throws: StdioTransportError.notConnected) {
            try await transport.send(Data(#"{"id":1}"#.utf8))
        }
    }
}

extension FastStdioTransportTests {
    /// The framing rules, fed chunk by chunk without any thread or descriptor.
    @Suite struct LineBufferTests {
        static let input = Data(#"\#r\#n{"a":1}\#r\#n  \#n{"b":"x\#ry"}\#n\#n{"c":3}\#r"#.utf8)
        static let expected = [#"{"a":1}"#, #"{"b":"x\#ry"}"#, #"{"c":3}"#]

        @Test func everySplitPointGivesTheSameMessages() {
            for split in 0...Self.input.count {
                let chunks = [Self.input.prefix(split), Self.input.dropFirst(split)]
                #expect(Self.messages(feeding: chunks) == Self.expected, "split at byte \(split)")
            }
        }

        @Test func byteByByteGivesTheSameMessages() {
            let chunks = Self.input.map { Data([$0]) }
            #expect(Self.messages(feeding: chunks) == Self.expected)
        }

        @Test func partialLineIsHeldUntilItsNewline() {
            var buffer = LineBuffer()
            var delivered: [Data] = []
            Self.append(Data(#"{"id":"#.utf8), to: &buffer) { delivered.append($0) }
            #expect(delivered.isEmpty)
            #expect(buffer.hasPartialLine)
            Self.append(Data("7}\n".utf8), to: &buffer) { delivered.append($0) }
            #expect(delivered == [Data(#"{"id":7}"#.utf8)])
            #expect(!buffer.hasPartialLine)
            #expect(buffer.finish() == nil)
        }

        private static func messages(feeding chunks: [Data]) -> [String] {
            var buffer = LineBuffer()
            var messages: [String] = []
            for chunk in chunks {
                append(chunk, to: &buffer) { messages.append(String(decoding: $0, as: UTF8.self)) }
            }
            if let last = buffer.finish() {
                messages.append(String(decoding: last, as: UTF8.self))
            }
            return messages
        }

        private static func append(_ chunk: Data, to buffer: inout LineBuffer, body: (Data) -> Void) {
            Array(chunk).withUnsafeBufferPointer { buffer.append($0, forEachLine: body) }
        }
    }
}

// MARK: - Helpers

/// A `pipe(2)` pair. Tests close the ends themselves, in the order the suite comment gives.
private struct TestPipe {
    let readEnd: CInt
    let writeEnd: CInt

    init() throws {
        var ends: [CInt] = [-1, -1]
        guard pipe(&ends) == 0 else { throw PipeFailure(errno: errno) }
        readEnd = ends[0]
        writeEnd = ends[1]
    }

    func closeBothEnds() {
        close(readEnd)
        close(writeEnd)
    }
}

private struct PipeFailure: Error {
    var errno: Int32
}

/// Writes `chunks` (one write loop each) to a fresh pipe feeding a transport, closes the write
/// end, and returns every message the transport delivered before its stream finished.
private func receivedData(writing chunks: [Data]) async throws -> [Data] {
    let pipe = try TestPipe()
    let transport = FastStdioTransport(input: pipe.readEnd, output: -1)
    try await transport.connect()
    async let writing: Void = writeInBackground(chunks, to: pipe.writeEnd)
    let messages = try await collect(transport)
    try await writing
    close(pipe.readEnd)
    return messages
}

private func receivedMessages(writing chunks: [String]) async throws -> [String] {
    try await receivedData(writing: chunks.map { Data($0.utf8) })
        .map { String(decoding: $0, as: UTF8.self) }
}

private func collect(_ transport: FastStdioTransport) async throws -> [Data] {
    var messages: [Data] = []
    for try await message in await transport.receive() {
        messages.append(message)
    }
    return messages
}

/// Runs `body` with a connected transport writing to `output` and reading an input that is
/// already at end, then waits for the reader to finish before closing that input.
private func withConnectedTransport(
    output: CInt, outputMayClose: Bool = false,
    _ body: (FastStdioTransport) async throws -> Void
) async throws {
    let input = try TestPipe()
    close(input.writeEnd)
    let transport = FastStdioTransport(input: input.readEnd, output: output)
    try await transport.connect()
    try await body(transport)
    if outputMayClose {
        // The stream may have ended before the reader thread saw end of input: its read end
        // stays open on purpose (there is no signal for when that thread has returned).
        _ = try? await collect(transport)
        return
    }
    _ = try await collect(transport)
    close(input.readEnd)
}

/// Writes each chunk fully on a dedicated thread (large writes block until the reader drains
/// the pipe), then closes `descriptor` so the reader sees end of input.
private func writeInBackground(_ chunks: [Data], to descriptor: CInt) async throws {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let writer = Thread {
            defer { close(descriptor) }
            for chunk in chunks {
                let failure = Array(chunk).withUnsafeBytes { bytes -> Int32? in
                    var written = 0
                    while written < bytes.count {
                        guard let base = bytes.baseAddress else { return nil }
                        let result = write(descriptor, base + written, bytes.count - written)
                        if result < 0 {
                            if errno == EINTR { continue }
                            return errno
                        }
                        written += result
                    }
                    return nil
                }
                if let failure {
                    continuation.resume(throwing: PipeFailure(errno: failure))
                    return
                }
            }
            continuation.resume()
        }
        writer.start()
    }
}

/// Reads `descriptor` to end of input on a dedicated thread.
private func readInBackground(_ descriptor: CInt) async throws -> Data {
    try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
        let reader = Thread {
            do {
                continuation.resume(returning: try readToEnd(descriptor))
            } catch {
                continuation.resume(throwing: error)
            }
        }
        reader.start()
    }
}

/// Reads `descriptor` until end of input (every write end must be closed first).
private func readToEnd(_ descriptor: CInt) throws -> Data {
    var result = Data()
    var buffer = [UInt8](repeating: 0, count: 64 * 1024)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count == 0 { return result }
        if count < 0 {
            if errno == EINTR { continue }
            throw PipeFailure(errno: errno)
        }
        result.append(contentsOf: buffer[0..<count])
    }
}
