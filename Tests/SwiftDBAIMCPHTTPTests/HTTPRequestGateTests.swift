import Foundation
import HTTPTypes
import Testing
@testable import SwiftDBAIMCPHTTP

@Suite("HTTP addresses, origins and the request gate")
struct HTTPRequestGateTests {
    /// A request head as Hummingbird makes it: HTTP/1.1's Host becomes the authority.
    private func request(_ headers: [(String, String)], method: HTTPRequest.Method = .post) -> HTTPRequest {
        var fields = HTTPFields()
        var authority: String?
        for (name, value) in headers {
            if name.lowercased() == "host" {
                authority = value
            } else if let name = HTTPField.Name(name) {
                fields.append(HTTPField(name: name, value: value))
            }
        }
        return HTTPRequest(method: method, scheme: "http", authority: authority, path: "/mcp", headerFields: fields)
    }

    private func gate(host: String = "127.0.0.1", token: String? = "secret", origins: [String] = []) throws -> HTTPRequestGate {
        HTTPRequestGate(options: try HTTPServeOptions(
            address: HTTPListenAddress(host: host, port: 8080), authToken: token, allowedOrigins: origins))
    }

    @Test("--http parses HOST:PORT and [IPv6]:PORT", arguments: [
        ("127.0.0.1:8080", "127.0.0.1", 8080, true),
        ("localhost:0", "localhost", 0, true),
        ("[::1]:9000", "::1", 9000, true),
        ("0.0.0.0:80", "0.0.0.0", 80, false),
        ("127.9.9.9:1", "127.9.9.9", 1, true),
        ("10.0.0.5:443", "10.0.0.5", 443, false),
        ("[::]:8080", "::", 8080, false),
    ] as [(String, String, Int, Bool)])
    func addresses(text: String, host: String, port: Int, loopback: Bool) throws {
        let address = try HTTPListenAddress(parsing: text)
        #expect(address.host == host && address.port == port && address.isLoopback == loopback)
    }

    @Test("a malformed --http is refused with what to write", arguments: [
        "localhost", ":8080", "127.0.0.1:", "127.0.0.1:65536", "127.0.0.1:-1", "::1:8080", "[::1]8080", "a b:80", "127.0.0.1:http",
    ])
    func badAddresses(text: String) {
        #expect(throws: HTTPServeError.self) { try HTTPListenAddress(parsing: text) }
    }

    @Test("a non-loopback address needs a token; limits and origins are checked")
    func options() {
        #expect(throws: HTTPServeError.openBindWithoutToken("0.0.0.0:8080")) {
            try HTTPServeOptions(address: HTTPListenAddress(host: "0.0.0.0", port: 8080))
        }
        #expect(throws: HTTPServeError.openBindWithoutToken("0.0.0.0:8080")) {
            try HTTPServeOptions(address: HTTPListenAddress(host: "0.0.0.0", port: 8080), authToken: "")
        }
        #expect(throws: HTTPServeError.invalidOrigin("example.com")) {
            try HTTPServeOptions(address: HTTPListenAddress(host: "127.0.0.1", port: 1), allowedOrigins: ["example.com"])
        }
        #expect(throws: HTTPServeError.self) {
            try HTTPServeOptions(address: HTTPListenAddress(host: "127.0.0.1", port: 1), maxSessions: 0)
        }
    }

    @Test("the token: Bearer scheme in any case, compared whole")
    func token() async throws {
        let gate = try gate()
        #expect(await gate.refusal(request([("Authorization", "Bearer secret")])) == nil)
        #expect(await gate.refusal(request([("Authorization", "bearer secret")])) == nil)
        for wrong in ["Bearer secre", "Bearer secrets", "Bearer Secret", "Basic secret", "secret", "Bearer ", ""] {
            #expect(await gate.refusal(request([("Authorization", wrong)]))?.status == 401, "\(wrong)")
        }
        #expect(await gate.refusal(request([]))?.status == 401)
        // A CORS preflight carries no credentials; every other method needs the token.
        #expect(await gate.refusal(request([], method: .options)) == nil)
        #expect(await gate.refusal(request([], method: .delete))?.status == 401)
        #expect(HTTPRequestGate.constantTimeEqual(Array("abc".utf8), Array("abc".utf8)))
        #expect(!HTTPRequestGate.constantTimeEqual(Array("abc\u{0}".utf8), Array("abc".utf8)))
        #expect(!HTTPRequestGate.constantTimeEqual([], Array("abc".utf8)))
    }

    @Test("Host must name this machine on a loopback address; Origin must be loopback or allowed")
    func hostAndOrigin() async throws {
        let gate = try gate(origins: ["https://app.example.com/"])
        let bearer = ("Authorization", "Bearer secret")
        for host in ["127.0.0.1:8080", "localhost", "[::1]:8080", "LOCALHOST:1"] {
            #expect(await gate.refusal(request([bearer, ("Host", host)])) == nil, "\(host)")
        }
        for host in ["evil.com", "evil.com:8080", "127.0.0.1.nip.io:8080", "[::2]:8080", ""] {
            #expect(await gate.refusal(request([bearer, ("Host", host)]))?.status == 403, "\(host)")
        }
        for origin in ["http://localhost:6274", "https://127.0.0.1", "http://[::1]:3000", "https://app.example.com"] {
            #expect(await gate.refusal(request([bearer, ("Origin", origin)])) == nil, "\(origin)")
        }
        for origin in ["null", "https://evil.com", "https://app.example.com.evil.com", "file://localhost", "http://localhost.evil.com"] {
            #expect(await gate.refusal(request([bearer, ("Origin", origin)]))?.status == 403, "\(origin)")
        }
        // Beyond loopback the token guards; any Host passes.
        let open = try self.gate(host: "0.0.0.0")
        #expect(await open.refusal(request([bearer, ("Host", "db.example.com:8080")])) == nil)
    }

    @Test("Accept lists a media type exactly, as type/*, as */*, or not at all")
    func accept() {
        func accepts(_ header: String?, _ type: String) -> Bool {
            HTTPExchangeRequest(head: request(header.map { [("ACCEPT", $0)] } ?? [])).accepts(type)
        }
        #expect(accepts("application/json, text/event-stream", "text/event-stream"))
        #expect(accepts("Application/JSON;q=0.9 ,\tTEXT/Event-Stream ; q=1", "text/event-stream"))
        #expect(accepts("text/*", "text/event-stream"))
        #expect(accepts("*/*", "application/json"))
        #expect(accepts(nil, "application/json"))
        #expect(!accepts("application/json", "text/event-stream"))
        #expect(!accepts("text/event-streams", "text/event-stream"))
        #expect(!accepts("", "application/json"))
    }
}

extension HTTPRequestGate {
    /// The answer that refuses the request; nil when it is let through.
    func refusal(_ request: HTTPRequest) async -> HTTPReply? {
        if case .failure(let refused) = await admit(request) { return refused.reply }
        return nil
    }
}
