import Foundation
import GRDB
import MCP
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel
import SwiftDBAIMCPKernelTestSupport
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

/// Confirmations under 2026-07-28 (Multi Round-Trip Requests), through the server: the first
/// call answers `input_required` with a signed state, the retry with the user's answer runs
/// the write once, only on the rows previewed.
@Suite("ConfirmationRoundTrip: accepted, declined, replayed, altered, expired and stale confirmations", .timeLimit(.minutes(1)))
struct ConfirmationRoundTripTests {
    /// A server on a copy of Chinook (deletes allowed), spoken to with raw 2026-07-28 lines.
    final class Harness: Sendable {
        let fixture: ServerFixture
        let transport = ScriptedTransport()
        private let nextID = Mutex(0)

        init() async throws {
            fixture = try ServerFixture()
            let server = try DBAIServer(configuration: fixture.configuration(.unrestricted))
            let transport = transport
            Task { try await server.run(transport: transport) }
        }

        deinit { transport.endInput() }

        /// The response to one `tools/call` with these params, as a client that can elicit.
        func call(_ params: [String: Value], elicits: Bool = true) async throws -> [String: Value] {
            let id = nextID.withLock { $0 += 1; return $0 }
            var params = params
            params["_meta"] = [
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientCapabilities": elicits ? ["elicitation": [:]] : [:],
            ]
            let line: Value = ["jsonrpc": "2.0", "id": .int(id), "method": "tools/call", "params": .object(params)]
            transport.deliver(String(decoding: JSONMessageWriter.data(line), as: UTF8.self))
            await transport.waitForSent(id)
            let reply = try await transport.sentMessages().first { $0["id"] == .int(id) }
            return try #require(reply, "no response to request \(id)")
        }

        func count(_ sql: String) throws -> Int {
            let queue = try DatabaseQueue(path: fixture.path)
            defer { try? queue.close() }
            return try queue.read { db in try Int.fetchOne(db, sql: sql) ?? -1 }
        }

        func execute(_ sql: String) throws {
            let queue = try DatabaseQueue(path: fixture.path)
            defer { try? queue.close() }
            try queue.write { db in try db.execute(sql: sql) }
        }
    }

    static let delete: [String: Value] = ["name": "delete", "arguments": ["table": "InvoiceLine", "where": ["InvoiceId": 1]]]
    static let remaining = "SELECT count(*) FROM InvoiceLine WHERE InvoiceId = 1"

    /// The retry of `call` with the user's answer and the echoed state.
    static func retry(_ state: String, accept: Bool = true, confirm: Bool = true, call: [String: Value] = delete) -> [String: Value] {
        var answer: [String: Value] = ["action": accept ? "accept" : "decline"]
        if accept { answer["content"] = ["confirm": .bool(confirm)] }
        var params = call
        params["inputResponses"] = ["confirm": .object(answer)]
        params["requestState"] = .string(state)
        return params
    }

    /// The first round: an `input_required` result whose state is returned.
    func firstRound(_ harness: Harness) async throws -> String {
        let result = try #require(try await harness.call(Self.delete)["result"]?.objectValue)
        #expect(result["resultType"] == "input_required")
        let request = try #require(result["inputRequests"]?.objectValue?["confirm"]?.objectValue)
        #expect(request["method"] == "elicitation/create")
        return try #require(result["requestState"]?.stringValue)
    }

    @Test("accepted: nothing runs before the answer; the retry deletes the previewed rows once")
    func accepted() async throws {
        let harness = try await Harness()
        let state = try await firstRound(harness)
        #expect(try harness.count(Self.remaining) == 2, "nothing ran before the answer")
        let done = try #require(try await harness.call(Self.retry(state))["result"]?.objectValue)
        #expect(done["resultType"] == "complete" && done["isError"] != true)
        #expect(done["structuredContent"]?.objectValue?["rows_affected"] == 2)
        #expect(try harness.count(Self.remaining) == 0)
    }

    @Test("declined, or accepted with confirm false: an error result, nothing changed, and the state is spent", arguments: [
        (false, true), (true, false),
    ])
    func declined(accept: Bool, confirm: Bool) async throws {
        let harness = try await Harness()
        let state = try await firstRound(harness)
        let answer = try #require(try await harness.call(Self.retry(state, accept: accept, confirm: confirm))["result"]?.objectValue)
        #expect(answer["isError"] == true)
        #expect(try harness.count(Self.remaining) == 2)
        let replay = try await harness.call(Self.retry(state))
        #expect(replay["error"]?.objectValue?["code"] == -32602, "a declined state cannot be replayed as an acceptance")
        #expect(try harness.count(Self.remaining) == 2)
    }

    @Test("replayed after it ran, on the same rows put back: -32602 already used, nothing written")
    func replayed() async throws {
        let harness = try await Harness()
        let state = try await firstRound(harness)
        _ = try await harness.call(Self.retry(state))
        try harness.execute("INSERT INTO InvoiceLine VALUES (1, 1, 2, 0.99, 1), (2, 1, 4, 0.99, 1)")
        let replay = try #require(try await harness.call(Self.retry(state))["error"]?.objectValue)
        #expect(replay["code"] == -32602)
        #expect(replay["message"]?.stringValue?.contains("already used") == true)
        #expect(try harness.count(Self.remaining) == 2)
    }

    @Test("a state for other arguments, or altered, is -32602; the genuine one still works afterwards")
    func alteredOrOtherWrite() async throws {
        let harness = try await Harness()
        let state = try await firstRound(harness)
        let other: [String: Value] = ["name": "delete", "arguments": ["table": "InvoiceLine", "where": ["InvoiceId": 2]]]
        let otherWrite = try #require(try await harness.call(Self.retry(state, call: other))["error"]?.objectValue)
        #expect(otherWrite["code"] == -32602)
        #expect(otherWrite["message"]?.stringValue?.contains("different write") == true)
        for bad in [String(state.dropLast(2)) + (state.hasSuffix("AA") ? "BB" : "AA"), "not-a-state"] {
            #expect(try await harness.call(Self.retry(bad))["error"]?.objectValue?["code"] == -32602)
        }
        #expect(try harness.count("SELECT count(*) FROM InvoiceLine WHERE InvoiceId IN (1, 2)") > 2)
        let done = try await harness.call(Self.retry(state))
        #expect(done["result"]?.objectValue?["structuredContent"]?.objectValue?["rows_affected"] == 2)
    }

    @Test("rows changed since the preview: a new preview that says so, nothing written; its own state then runs")
    func rowsChanged() async throws {
        let harness = try await Harness()
        let state = try await firstRound(harness)
        try harness.execute("UPDATE InvoiceLine SET Quantity = 9 WHERE InvoiceLineId = 1")
        let again = try #require(try await harness.call(Self.retry(state))["result"]?.objectValue)
        #expect(again["resultType"] == "input_required")
        let message = again["inputRequests"]?.objectValue?["confirm"]?.objectValue?["params"]?.objectValue?["message"]?.stringValue
        #expect(message?.contains("changed") == true)
        #expect(try harness.count(Self.remaining) == 2)
        let newState = try #require(again["requestState"]?.stringValue)
        #expect(newState != state)
        let done = try await harness.call(Self.retry(newState))
        #expect(done["result"]?.objectValue?["structuredContent"]?.objectValue?["rows_affected"] == 2)
        #expect(try harness.count(Self.remaining) == 0)
    }

    @Test("an expired state is refused by its claim: nothing runs")
    func expired() throws {
        let signer = RequestStateSigner()
        let issuing = ConfirmationRoundTrip(signer: signer, elicits: true, requestState: nil, response: nil)
        let signature = ChangeSignature(rowsAffected: 1, changedRowIDs: ["t": [1]], contentDigest: Data([7]))
        let state = issuing.state(
            token: "t", fingerprint: "write", signature: signature, lifetime: .seconds(60), now: Date(timeIntervalSince1970: 1_000))
        let retrying = ConfirmationRoundTrip(signer: signer, elicits: true, requestState: state, response: .accepted)
        #expect(try retrying.claim(fingerprint: "write", now: Date(timeIntervalSince1970: 1_059))?.token == "t")
        #expect(throws: ProtocolError.self) { try retrying.claim(fingerprint: "write", now: Date(timeIntervalSince1970: 1_060)) }
        #expect(throws: ProtocolError.self) { try retrying.claim(fingerprint: "other write", now: Date(timeIntervalSince1970: 1_000)) }
    }
}
