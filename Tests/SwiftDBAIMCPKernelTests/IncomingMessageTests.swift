import Foundation
import MCP
@testable import SwiftDBAIMCPKernel
import Testing

/// Every line is classified by JSON-RPC 2.0 §4–5 and MCP's rules; what is not valid gets the
/// error the specification asks for, with the right id, or no answer for a notification.
@Suite("Incoming messages")
struct IncomingMessageTests {
    /// The reply of an invalid line, parsed, or nil.
    static func reply(_ line: String) -> Value? {
        guard case .invalid(let reply, _) = IncomingMessage(Data(line.utf8)), let reply else { return nil }
        return try? JSONMessageParser.parse(reply)
    }

    static func rawReply(_ line: String) -> String? {
        guard case .invalid(let reply?, _) = IncomingMessage(Data(line.utf8)) else { return nil }
        return String(decoding: reply, as: UTF8.self)
    }

    @Test("invalid lines get one error with the id the specification asks for", arguments: [
        ("{not json", -32700, Value.null),
        ("5", -32600, .null),
        ("\"text\"", -32600, .null),
        ("null", -32600, .null),
        ("[]", -32600, .null),
        (#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":"bad"}"#, -32600, .int(5)),
        (#"{"jsonrpc":"2.0","id":5,"method":"tools/list","params":[1]}"#, -32602, .int(5)),
        (#"{"jsonrpc":"1.0","id":"a","method":"ping"}"#, -32600, .string("a")),
        (#"{"id":5,"method":"ping"}"#, -32600, .int(5)),
        (#"{"jsonrpc":"2.0","id":5,"method":12}"#, -32600, .int(5)),
        (#"{"jsonrpc":"2.0","id":5}"#, -32600, .int(5)),
        (#"{"jsonrpc":"2.0","id":null,"method":"ping"}"#, -32600, .null),
        (#"{"jsonrpc":"2.0","id":true,"method":"ping"}"#, -32600, .null),
        (#"{"jsonrpc":"2.0","id":{},"method":"ping"}"#, -32600, .null),
        (#"{"jsonrpc":"2.0","method":1,"params":"bar"}"#, -32600, .null),
    ] as [(String, Int, Value)])
    func invalid(line: String, code: Int, id: Value) throws {
        let reply = try #require(Self.reply(line)?.objectValue, "\(line)")
        #expect(reply["jsonrpc"] == "2.0")
        #expect(reply["id"] == id, "\(line)")
        #expect(reply["error"]?.objectValue?["code"] == .int(code), "\(line)")
        #expect(reply["error"]?.objectValue?["message"]?.stringValue?.isEmpty == false)
    }

    @Test("a number id that MCP does not accept is echoed exactly as written", arguments: ["1.5", "1e400", "18446744073709551616", "-0.0"])
    func echoedID(id: String) throws {
        let raw = try #require(Self.rawReply(#"{"jsonrpc":"2.0","id":\#(id),"method":"ping"}"#))
        #expect(raw.contains("\"id\":\(id),"))
        #expect(raw.contains("-32600"))
    }

    @Test("valid requests, notifications and responses pass; invalid notifications get no answer")
    func valid() {
        guard case .request(.number(7), "tools/list", _) = IncomingMessage(Data(#"{"jsonrpc":"2.0","id":7,"method":"tools/list"}"#.utf8)) else {
            Issue.record("expected a request")
            return
        }
        guard case .request(.string(""), "ping", _) = IncomingMessage(Data(#"{"jsonrpc":"2.0","id":"","method":"ping","params":{}}"#.utf8)) else {
            Issue.record("expected a request with an empty string id")
            return
        }
        guard case .notification("notifications/initialized", _) = IncomingMessage(Data(#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#.utf8)) else {
            Issue.record("expected a notification")
            return
        }
        guard case .response(.number(3), _) = IncomingMessage(Data(#"{"jsonrpc":"2.0","id":3,"result":{}}"#.utf8)) else {
            Issue.record("expected a response")
            return
        }
        guard case .invalid(nil, _) = IncomingMessage(Data(#"{"jsonrpc":"2.0","method":"x","params":[1]}"#.utf8)) else {
            Issue.record("an invalid notification gets no answer")
            return
        }
    }

    @Test("a batch gets one array with an error for each request, none for its notifications")
    func batch() throws {
        let line = #"[{"jsonrpc":"2.0","id":7,"method":"ping"},{"jsonrpc":"2.0","method":"notifications/initialized"},{"jsonrpc":"2.0","id":"b","method":"tools/list"},3]"#
        let replies = try #require(Self.reply(line)?.arrayValue)
        #expect(replies.map { $0.objectValue?["id"] } == [.int(7), .string("b"), .null])
        #expect(replies.allSatisfy { $0.objectValue?["error"]?.objectValue?["code"] == .int(-32600) })
    }
}
