import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import NIOCore
import SwiftDBAI
import SwiftDBAIMCP
import SwiftDBAIOAuth
import SwiftDBAIOAuthTestSupport
import SwiftDBAITestSupport
import Testing
@testable import SwiftDBAIMCPHTTP

/// `--oauth-issuer` through the router: the metadata document, the 401 challenges, scopes that
/// narrow `--allow` (403 before anything runs, lists that show only what a caller may call),
/// and sessions bound to the person who opened them.
@Suite("OAuth resource server")
struct OAuthEndpointTests {
    private static let resource = "https://db.example.com/mcp"
    private static let stateless = #""_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}"#

    private struct Served {
        let database: ScratchDatabase
        let issuer: ScriptedAuthorizationServer
        let key: TestSigningKey
        let application: Application<RouterResponder<MCPRequestContext>>

        init(allow: OperationAllowlist = .standard) throws {
            database = try ScratchDatabase("CREATE TABLE genre(id INTEGER PRIMARY KEY, name TEXT); INSERT INTO genre(name) VALUES ('Rock'), ('Jazz');")
            key = try TestSigningKey.rsa("k1")
            issuer = ScriptedAuthorizationServer(keys: [key])
            let server = try DBAIServer(configuration: DBAIServerConfiguration(databasePath: database.path, allowlist: allow, sqliteMemoryLimit: nil))
            let verifier = AccessTokenVerifier(settings: try OAuthResourceSettings(issuer: issuer.issuer, resource: OAuthEndpointTests.resource), fetcher: issuer)
            let options = try HTTPServeOptions(
                address: HTTPListenAddress(host: "127.0.0.1", port: 0), oauth: OAuthProtection(verifier: verifier, scopes: AccessScope.offered(by: allow)))
            var logger = Logger(label: "tests")
            logger.logLevel = .warning
            application = Application(router: MCPRouter.make(endpoint: StreamableHTTPEndpoint(server: server, options: options, logger: logger)))
        }

        func token(
            _ scope: String, subject: String = "alice", audience: String = OAuthEndpointTests.resource, client: String = "cli"
        ) throws -> String {
            let now = Date().timeIntervalSince1970
            return try TestToken.make(
                header: ["alg": "RS256", "typ": "at+jwt", "kid": key.kid],
                claims: ["iss": issuer.issuer, "sub": subject, "aud": audience, "client_id": client, "scope": scope, "exp": now + 300, "iat": now],
                key: key)
        }

        func test(_ body: @Sendable @escaping (any TestClientProtocol) async throws -> Void) async throws {
            try await application.test(.router, body)
        }
    }

    private static func headers(_ token: String?, _ extra: HTTPFields = [:], method: String? = nil, name: String? = nil) -> HTTPFields {
        var fields: HTTPFields = [.contentType: "application/json", .accept: "application/json, text/event-stream"]
        if let method {
            fields[.mcpProtocolVersion] = "2026-07-28"
            fields[.mcpMethod] = method
            if let name { fields[.mcpName] = name }
        }
        if let token { fields[.authorization] = "Bearer \(token)" }
        fields.append(contentsOf: extra)
        return fields
    }

    private static func call(_ tool: String, _ arguments: String) -> ByteBuffer {
        ByteBuffer(string: #"{"jsonrpc":"2.0","id":3,"method":"tools/call","params":{"name":"\#(tool)","arguments":\#(arguments),\#(stateless)}}"#)
    }

    private static func json(_ response: TestResponse) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(response.body.readableBytesView)) as? [String: Any])
    }

    @Test("the Protected Resource Metadata is public at the resource's path and the root")
    func metadata() async throws {
        let served = try Served()
        try await served.test { client in
            for path in ["/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"] {
                let response = try await client.execute(uri: path, method: .get)
                #expect(response.status == .ok)
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                let document = try Self.json(response)
                #expect(document["resource"] as? String == Self.resource)
                #expect(document["authorization_servers"] as? [String] == [served.issuer.issuer])
                #expect(document["scopes_supported"] as? [String] == ["dbai:read", "dbai:write"])
                #expect(document["bearer_methods_supported"] as? [String] == ["header"])
            }
        }
    }

    @Test("no token, or a token for another resource: 401 naming the metadata and the scopes")
    func unauthorized() async throws {
        let served = try Served()
        let elsewhere = try served.token("dbai:read", audience: "https://other.example.com/mcp")
        try await served.test { client in
            let anonymous = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(nil), body: Self.call("query", #"{"sql":"SELECT 1"}"#))
            #expect(anonymous.status == .unauthorized)
            #expect(anonymous.headers[.wwwAuthenticate]
                == #"Bearer resource_metadata="https://db.example.com/.well-known/oauth-protected-resource/mcp", scope="dbai:read dbai:write""#)
            let misdirected = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers(elsewhere), body: Self.call("query", #"{"sql":"SELECT 1"}"#))
            #expect(misdirected.status == .unauthorized)
            let challenge = try #require(misdirected.headers[.wwwAuthenticate])
            #expect(challenge.hasPrefix(#"Bearer error="invalid_token", error_description="the token is not meant for this resource"#))
            #expect(challenge.contains(#"resource_metadata="https://db.example.com/.well-known/oauth-protected-resource/mcp""#))
        }
    }

    @Test("a read-only token lists and calls reads only; a write is 403 insufficient_scope and runs nothing")
    func scopesNarrowTheAllowlist() async throws {
        let served = try Served()
        let reader = try served.token("dbai:read")
        let writer = try served.token("dbai:read dbai:write")
        try await served.test { client in
            let listed = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers(reader, method: "tools/list"),
                body: ByteBuffer(string: #"{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{\#(Self.stateless)}}"#))
            #expect(listed.status == .ok, "\(String(buffer: listed.body))")
            let tools = try #require((try Self.json(listed)["result"] as? [String: Any])?["tools"] as? [[String: Any]]).compactMap { $0["name"] as? String }
            #expect(tools.contains("query") && !tools.contains("insert") && !tools.contains("update"))

            let insert = Self.call("insert", #"{"table":"genre","rows":[{"name":"Soul"}]}"#)
            let refused = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(reader, method: "tools/call", name: "insert"), body: insert)
            #expect(refused.status == .forbidden)
            let challenge = try #require(refused.headers[.wwwAuthenticate])
            #expect(challenge.hasPrefix(#"Bearer error="insufficient_scope""#))
            #expect(challenge.hasSuffix(#"scope="dbai:read dbai:write""#))
            #expect(try served.database.scalar("SELECT count(*) FROM genre", as: Int.self) == 2)

            // The step-up: the same call with a token that has the scope.
            let accepted = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(writer, method: "tools/call", name: "insert"), body: insert)
            #expect(accepted.status == .ok, "\(String(buffer: accepted.body))")
            #expect(try served.database.scalar("SELECT count(*) FROM genre", as: Int.self) == 3)

            let writeOnly = try served.token("dbai:write")
            let read = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(writeOnly, method: "tools/call", name: "query"), body: Self.call("query", #"{"sql":"SELECT 1"}"#))
            #expect(read.status == .forbidden)
        }
    }

    @Test("a session belongs to the person and the application that opened it")
    func sessionsAreBound() async throws {
        let served = try Served()
        let alice = try served.token("dbai:read")
        let bob = try served.token("dbai:read", subject: "bob")
        let initialize = ByteBuffer(string: #"{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}"#)
        let query = ByteBuffer(string: #"{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"query","arguments":{"sql":"SELECT count(*) FROM genre"}}}"#)
        try await served.test { client in
            let opened = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(alice), body: initialize)
            let session = try #require(opened.headers[.mcpSessionID])
            let foreign = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(bob, [.mcpSessionID: session]), body: query)
            #expect(foreign.status == .notFound)
            let otherApplication = try await client.execute(
                uri: "/mcp", method: .post, headers: Self.headers(try served.token("dbai:read", client: "another-app"), [.mcpSessionID: session]),
                body: query)
            #expect(otherApplication.status == .notFound)
            let own = try await client.execute(uri: "/mcp", method: .post, headers: Self.headers(try served.token("dbai:read dbai:write"), [.mcpSessionID: session]), body: query)
            #expect(own.status == .ok)
        }
    }
}
