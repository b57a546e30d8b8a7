import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SwiftDBAIMCP
import SwiftDBAITestSupport
import Testing
@testable import SwiftDBAIMCPHTTP

/// The MCP endpoint through its router, as Hummingbird serves it, without a socket: sessions,
/// stateless requests, the gate, the body limit, what no route serves, and the drain.
@Suite("Streamable HTTP endpoint")
struct StreamableHTTPEndpointTests {
    private static let token = "secret-token"
    private static let initialize = #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"tests","version":"1"}}}"#

    /// A server on a fresh database of three genres, its endpoint and the router's application.
    private struct Served {
        let database: ScratchDatabase
        let endpoint: StreamableHTTPEndpoint
        let application: Application<RouterResponder<MCPRequestContext>>

        init(maxRequestBytes: Int = HTTPServeOptions.defaultMaxRequestBytes, origins: [String] = []) throws {
            database = try ScratchDatabase("CREATE TABLE genre(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO genre(name) VALUES ('Rock'), ('Jazz'), ('Blues');")
            let server = try DBAIServer(configuration: DBAIServerConfiguration(
                databasePath: database.path, allowlist: .readOnly, sqliteMemoryLimit: nil))
            let options = try HTTPServeOptions(
                address: HTTPListenAddress(host: "127.0.0.1", port: 0), authToken: StreamableHTTPEndpointTests.token,
                allowedOrigins: origins, maxRequestBytes: maxRequestBytes)
            var logger = Logger(label: "tests")
            logger.logLevel = .warning
            endpoint = StreamableHTTPEndpoint(server: server, options: options, logger: logger)
            application = Application(router: MCPRouter.make(endpoint: endpoint))
        }

        func test(_ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void) async throws {
            try await application.test(.router, body)
        }
    }

    private static func headers(_ extra: HTTPFields = [:], token: String? = StreamableHTTPEndpointTests.token) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json", .accept: "application/json, text/event-stream"]
        if let token { fields[.authorization] = "Bearer \(token)" }
        fields.append(contentsOf: extra)
        return fields
    }

    private static func json(_ response: TestResponse) throws -> [String: Any] {
        let object = try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView))
        return try #require(object as? [String: Any])
    }

    private static func errorMessage(_ response: TestResponse) throws -> String {
        let error = try #require(try json(response)["error"] as? [String: Any])
        return try #require(error["message"] as? String)
    }

    /// Opens a session; its id.
    private static func open(_ client: any TestClientProtocol) async throws -> String {
        let response = try await client.execute(uri: "/mcp", method: .post, headers: headers(), body: ByteBuffer(string: initialize))
        #expect(response.status == .ok)
        return try #require(response.headers[.mcpSessionID])
    }

    private static func call(_ id: Int, sql: String) -> ByteBuffer {
        ByteBuffer(string: #"{"jsonrpc":"2.0","id":\#(id),"method":"tools/call","params":{"name":"query","arguments":{"sql":"\#(sql)"}}}"#)
    }

    @Test("a session: initialize returns its id, calls name it, DELETE ends it")
    func session() async throws {
        let served = try Served()
        try await served.test { client in
            let session = try await Self.open(client)
            let called = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers([.mcpSessionID: session]), body: Self.call(2, sql: "SELECT count(*) FROM genre"))
            #expect(called.status == .ok && called.headers[.contentType] == "application/json")
            let result = try #require(try Self.json(called)["result"] as? [String: Any])
            let structured = try #require(result["structuredContent"] as? [String: Any])
            #expect(structured["rows"] as? [[Int]] == [[3]])
            #expect(await served.endpoint.sessionCount == 1)

            let notified = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers([.mcpSessionID: session]),
                body: ByteBuffer(string: #"{"jsonrpc":"2.0","method":"notifications/initialized"}"#))
            #expect(notified.status == .accepted)

            let ended = try await client.execute(uri: "/mcp", method: .delete, headers: Self.headers([.mcpSessionID: session]))
            #expect(ended.status == .ok)
            let after = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers([.mcpSessionID: session]), body: Self.call(3, sql: "SELECT 1"))
            #expect(after.status == .notFound)
        }
    }

    @Test("a request without a session, or naming an unknown one, is refused with what to do")
    func unknownSession() async throws {
        let served = try Served()
        try await served.test { client in
            let missing = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(), body: Self.call(7, sql: "SELECT 1"))
            #expect(missing.status == .badRequest)
            #expect(try Self.errorMessage(missing).contains("Mcp-Session-Id"))
            #expect(try Self.json(missing)["id"] as? Int == 7)
            let unknown = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers([.mcpSessionID: String(repeating: "0", count: 32)]),
                body: Self.call(8, sql: "SELECT 1"))
            #expect(unknown.status == .notFound)
            let get = try await client.execute(uri: "/mcp", method: .get, headers: Self.headers([.mcpSessionID: "nope"]))
            #expect(get.status == .notFound)
        }
    }

    @Test("a stateless 2026-07-28 request needs no session; its headers must agree with its body")
    func stateless() async throws {
        let served = try Served()
        let body = ByteBuffer(string: #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"query","arguments":{"sql":"SELECT name FROM genre ORDER BY id LIMIT 1"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#)
        try await served.test { client in
            let agreeing: HTTPFields = [.mcpProtocolVersion: "2026-07-28", .mcpMethod: "tools/call", .mcpName: "query"]
            let answered = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(agreeing), body: body)
            #expect(answered.status == .ok && answered.headers[.mcpSessionID] == nil)
            let result = try #require(try Self.json(answered)["result"] as? [String: Any])
            #expect(result["resultType"] as? String == "complete")
            #expect((result["structuredContent"] as? [String: Any])?["rows"] as? [[String]] == [["Rock"]])

            let mismatched: HTTPFields = [.mcpProtocolVersion: "2026-07-28", .mcpMethod: "tools/call", .mcpName: "delete"]
            let refused = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(mismatched), body: body)
            #expect(refused.status == .badRequest)
            #expect(try Self.errorMessage(refused).contains("Mcp-Name"))
            #expect(await served.endpoint.sessionCount == 0)
        }
    }

    @Test("the gate: no token 401 with WWW-Authenticate, a foreign origin 403, an allowed one gets CORS fields")
    func gate() async throws {
        let served = try Served(origins: ["https://app.example.com"])
        try await served.test { client in
            let anonymous = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers([.origin: "https://app.example.com"], token: nil),
                body: ByteBuffer(string: Self.initialize))
            #expect(anonymous.status == .unauthorized && anonymous.headers[.accessControlAllowOrigin] == "https://app.example.com")
            #expect(anonymous.headers[.wwwAuthenticate]?.hasPrefix("Bearer") == true)
            let wrong = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(token: "guess"), body: ByteBuffer(string: Self.initialize))
            #expect(wrong.status == .unauthorized && wrong.headers[.wwwAuthenticate]?.contains("invalid_token") == true)
            #expect(await served.endpoint.sessionCount == 0)

            let foreign = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers([.origin: "https://evil.example"]), body: ByteBuffer(string: Self.initialize))
            #expect(foreign.status == .forbidden && foreign.headers[.accessControlAllowOrigin] == nil)

            let allowed = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers([.origin: "https://app.example.com"]), body: ByteBuffer(string: Self.initialize))
            #expect(allowed.status == .ok)
            #expect(allowed.headers[.accessControlAllowOrigin] == "https://app.example.com")
            #expect(allowed.headers[.accessControlExposeHeaders]?.contains("Mcp-Session-Id") == true)

            // A preflight carries no credentials.
            let preflight = try await client.execute(uri: "/mcp", method: .options, headers: [.origin: "https://app.example.com"])
            #expect(preflight.status == .noContent)
            #expect(preflight.headers[.accessControlAllowHeaders]?.contains("Mcp-Session-Id") == true)
        }
    }

    @Test("what no route serves: 405 for another method of /mcp (behind the gate), 404 elsewhere (before it)")
    func unrouted() async throws {
        let served = try Served(origins: ["https://app.example.com"])
        let origin: HTTPFields = [.origin: "https://app.example.com"]
        try await served.test { client in
            let put = try await client.execute(uri: "/mcp", method: .put, headers: Self.headers(origin), body: ByteBuffer(string: "{}"))
            #expect(put.status == .methodNotAllowed && put.headers[.allow] == StreamableHTTPEndpoint.allowedMethods)
            #expect(put.headers[.accessControlAllowOrigin] == "https://app.example.com")
            let anonymousPut = try await client.execute(uri: "/mcp", method: .put, headers: Self.headers(origin, token: nil))
            #expect(anonymousPut.status == .unauthorized && anonymousPut.headers[.accessControlAllowOrigin] == "https://app.example.com")
            for path in ["/other", "/mcp/", "//mcp", "/MCP", "/mcp/x"] {
                let elsewhere = try await client.execute(
                    uri: path, method: .post, headers: Self.headers(origin, token: nil), body: Self.call(1, sql: "SELECT 1"))
                #expect(elsewhere.status == .notFound, "\(path)")
                #expect(try Self.errorMessage(elsewhere).contains("/mcp"))
                #expect(elsewhere.headers[.accessControlAllowOrigin] == "https://app.example.com")
            }
            let initialize = try await client.execute(
                uri: "/mcp/", method: .post, headers: Self.headers(origin), body: ByteBuffer(string: Self.initialize))
            #expect(initialize.status == .notFound)
            #expect(await served.endpoint.sessionCount == 0)
        }
    }

    @Test("a repeated field is read as its first: the token, the session id")
    func repeatedFields() async throws {
        let served = try Served()
        try await served.test { client in
            var twice = Self.headers(token: nil)
            twice.append(HTTPField(name: .authorization, value: "Bearer \(Self.token)"))
            twice.append(HTTPField(name: .authorization, value: "Bearer guess"))
            let first = try await client.execute(uri: "/mcp", method: .post, headers: twice, body: ByteBuffer(string: Self.initialize))
            #expect(first.status == .ok)
            var reversed = Self.headers(token: nil)
            reversed.append(HTTPField(name: .authorization, value: "Bearer guess"))
            reversed.append(HTTPField(name: .authorization, value: "Bearer \(Self.token)"))
            let refused = try await client.execute(uri: "/mcp", method: .post, headers: reversed, body: ByteBuffer(string: Self.initialize))
            #expect(refused.status == .unauthorized)

            let session = try #require(first.headers[.mcpSessionID])
            var sessions = Self.headers()
            sessions.append(HTTPField(name: .mcpSessionID, value: session))
            sessions.append(HTTPField(name: .mcpSessionID, value: "bogus"))
            let known = try await client.execute(uri: "/mcp", method: .post, headers: sessions, body: Self.call(2, sql: "SELECT 1"))
            #expect(known.status == .ok)
            var bogusFirst = Self.headers()
            bogusFirst.append(HTTPField(name: .mcpSessionID, value: "bogus"))
            bogusFirst.append(HTTPField(name: .mcpSessionID, value: session))
            let unknown = try await client.execute(uri: "/mcp", method: .post, headers: bogusFirst, body: Self.call(3, sql: "SELECT 1"))
            #expect(unknown.status == .notFound)
        }
    }

    @Test("a 2026-07-28 header that must agree with the body is refused when repeated, even if its first value agrees")
    func repeatedStatelessHeaders() async throws {
        let served = try Served()
        let body = ByteBuffer(string: #"{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"query","arguments":{"sql":"SELECT 1"},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#)
        try await served.test { client in
            var headers = Self.headers([.mcpProtocolVersion: "2026-07-28", .mcpMethod: "tools/call", .mcpName: "query"])
            headers.append(HTTPField(name: .mcpName, value: "delete"))
            let refused = try await client.execute(uri: "/mcp", method: .post, headers: headers, body: body)
            #expect(refused.status == .badRequest)
            #expect(try Self.errorMessage(refused).contains("Mcp-Name header appears 2 times"))
        }
    }

    @Test("a body that is not one JSON-RPC message as application/json is refused", arguments: [
        ("text/plain", "application/json", #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, 415),
        ("application/json", "image/png", #"{"jsonrpc":"2.0","id":1,"method":"tools/list"}"#, 406),
        ("application/json", "application/json", "{not json", 400),
        ("application/json; charset=utf-8", "application/json", #"{"jsonrpc":"1.0","id":1,"method":"tools/list"}"#, 400),
    ])
    func malformed(contentType: String, accept: String, body: String, status: Int) async throws {
        let served = try Served()
        try await served.test { client in
            var headers = Self.headers()
            headers[.contentType] = contentType
            headers[.accept] = accept
            let response = try await client.execute(uri: "/mcp", method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(response.status.code == status)
        }
    }

    @Test("a body over --max-request-bytes gets 413 before anything reads it")
    func tooLarge() async throws {
        let served = try Served(maxRequestBytes: 1024)
        // A valid initialize, padded past the limit.
        let padded = Self.initialize + String(repeating: " ", count: 1024)
        try await served.test { client in
            let response = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(), body: ByteBuffer(string: padded))
            #expect(response.status == .contentTooLarge)
            #expect(try Self.errorMessage(response).contains("1024 bytes"))
            #expect(await served.endpoint.sessionCount == 0)
        }
    }

    @Test("a refusal through a session's channel (what the dispatcher sends for a duplicate id) answers its POST with 400; a response, 200 as JSON")
    func refusal() async throws {
        let streams = HTTPSessionStreams(logger: Logger(label: "tests"))
        let refusal = Data(#"{"jsonrpc":"2.0","id":7,"error":{"code":-32600,"message":"still in progress"}}"#.utf8)
        let (refused, refusedChannel) = try #require(await streams.open(events: true))
        try await refusedChannel.refuse(refusal)
        let response = await HTTPReply(status: .ok, headers: [.mcpSessionID: "s"], body: .messages(refused, sse: true)).response()
        #expect(response.status == .badRequest && response.headers[.contentType] == "application/json")
        #expect(response.headers[.mcpSessionID] == "s")

        let (answered, answeredChannel) = try #require(await streams.open(events: true))
        try await answeredChannel.respond(Data(#"{"jsonrpc":"2.0","id":8,"result":{}}"#.utf8))
        let ok = await HTTPReply(status: .ok, body: .messages(answered, sse: true)).response()
        #expect(ok.status == .ok && ok.headers[.contentType] == "application/json")
        #expect(await streams.idleDuration != nil)
    }

    @Test("what answers no request never ends the GET stream")
    func standaloneStream() async throws {
        let streams = HTTPSessionStreams(logger: Logger(label: "tests"))
        let stream = try #require(await streams.openStandaloneStream())
        try await streams.sessionChannel.respond(Data("{}".utf8))
        try await streams.sessionChannel.send(Data("[]".utf8))
        await streams.close()
        var received: [HTTPOutgoing] = []
        for await message in stream { received.append(message) }
        #expect(received.map(\.isFinal) == [false, false])
    }

    @Test("draining: sessions end and none starts, stateless requests are answered until their input ends", .timeLimit(.minutes(1)))
    func draining() async throws {
        let served = try Served()
        try await served.test { client in
            let session = try await Self.open(client)
            await served.endpoint.beginDrain()
            await served.endpoint.drainSessions()
            #expect(await served.endpoint.sessionCount == 0)
            let refused = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(), body: ByteBuffer(string: Self.initialize))
            #expect(refused.status == .serviceUnavailable)
            let ended = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers([.mcpSessionID: session]), body: Self.call(2, sql: "SELECT 1"))
            #expect(ended.status == .notFound)
            let ready = try await client.execute(uri: "/readyz", method: .get)
            #expect(ready.status == .serviceUnavailable && String(buffer: ready.body) == "draining\n")
            let headers = Self.headers([.mcpProtocolVersion: "2026-07-28", .mcpMethod: "tools/list"])
            let body = #"{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}"#
            let answered = try await client.execute(uri: "/mcp", method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(answered.status == .ok)
            await served.endpoint.finishStatelessRequests()
            let stateless = try await client.execute(uri: "/mcp", method: .post, headers: headers, body: ByteBuffer(string: body))
            #expect(stateless.status == .serviceUnavailable)
        }
    }

    @Test("the MCP header names are valid field names")
    func fieldNames() {
        #expect([HTTPField.Name.mcpSessionID, .mcpProtocolVersion, .mcpMethod, .mcpName, .accelBuffering].map(\.canonicalName)
            == ["mcp-session-id", "mcp-protocol-version", "mcp-method", "mcp-name", "x-accel-buffering"])
    }
}
