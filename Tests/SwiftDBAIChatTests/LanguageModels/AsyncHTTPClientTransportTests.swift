import AsyncHTTPClient
import Foundation
import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport
import SwiftDBAIAsyncHTTPClient
import Testing

/// The AsyncHTTPClient transport against a local server: what it sends, what it returns, and the
/// code of each failure.
@Suite("AsyncHTTPClient transport")
struct AsyncHTTPClientTransportTests {
    private func request(_ server: ReplayHTTPServer, headers: [String: String] = [:], body: String = "{}")
        -> HTTPTransportRequest
    {
        HTTPTransportRequest(url: server.url("v1/chat"), headers: headers, body: Data(body.utf8))
    }

    private func failure(
        of request: HTTPTransportRequest, timeout: Duration = .seconds(10),
        transport: AsyncHTTPClientTransport = .shared
    ) async -> HTTPTransportError? {
        do {
            _ = try await transport.send(request, timeout: timeout)
            return nil
        } catch {
            return error
        }
    }

    @Test("the request goes out as given; the answer comes back whatever its status, header names in lower case")
    func roundTrip() async throws {
        let server = try ReplayHTTPServer([
            .json(#"{"error": "nope"}"#, status: 404, headers: ["X-Request-ID": "abc", "Retry-After": "2"])
        ])
        let response = try await AsyncHTTPClientTransport.shared.send(
            request(server, headers: ["Authorization": "Bearer k", "Content-Type": "application/json"], body: #"{"a":1}"#),
            timeout: .seconds(10))
        #expect(response.status == 404)
        #expect(response.headers["x-request-id"] == "abc")
        #expect(response.headers["retry-after"] == "2")
        #expect(response.headers["content-length"] == "17")
        #expect(String(decoding: response.body, as: UTF8.self) == #"{"error": "nope"}"#)
        let sent = try #require(server.requests.first)
        #expect(sent.method == "POST")
        #expect(sent.target == "/v1/chat")
        #expect(sent.headers["authorization"] == "Bearer k")
        #expect(sent.headers["content-type"] == "application/json")
        #expect(String(decoding: sent.body, as: UTF8.self) == #"{"a":1}"#)
    }

    @Test("a repeated header comes back as one value, joined with commas")
    func repeatedHeader() async throws {
        let server = try ReplayHTTPServer([
            .raw("HTTP/1.1 200 OK\r\nX-Trace: a\r\nx-trace: b\r\nContent-Length: 2\r\nConnection: close\r\n\r\n{}")
        ])
        let response = try await AsyncHTTPClientTransport.shared.send(request(server), timeout: .seconds(10))
        #expect(response.headers["x-trace"] == "a, b")
        #expect(String(decoding: response.body, as: UTF8.self) == "{}")
    }

    @Test("nothing listening is connection_refused, at once")
    func refused() async throws {
        let refusing = try ReplayHTTPServer.RefusingPort()
        let request = HTTPTransportRequest(url: try #require(URL(string: "http://127.0.0.1:\(refusing.port)/v1")))
        #expect(await failure(of: request, timeout: .seconds(60))?.code == .connectionRefused)
        withExtendedLifetime(refusing) {}
    }

    @Test("an answer slower than the timeout is timed_out")
    func timeout() async throws {
        let server = try ReplayHTTPServer([.json("{}", delay: .seconds(20))])
        #expect(await failure(of: request(server), timeout: .milliseconds(300))?.code == .timedOut)
    }

    @Test("cancelling the task stops the request with cancelled")
    func cancellation() async throws {
        let server = try ReplayHTTPServer([.json("{}", delay: .seconds(20))])
        let outgoing = request(server)
        let task = Task { await failure(of: outgoing, timeout: .seconds(60)) }
        await server.waitForRequests(1)
        task.cancel()
        #expect(await task.value?.code == .cancelled)
    }

    @Test("a body over the limit is response_too_large")
    func tooLarge() async throws {
        let server = try ReplayHTTPServer([.json(String(repeating: "x", count: 4096))])
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: AsyncHTTPClientTransport.configuration)
        let transport = AsyncHTTPClientTransport(client: client, maxResponseBytes: 1024)
        let error = await failure(of: request(server), transport: transport)
        try await client.shutdown()
        #expect(error?.code == .responseTooLarge)
    }

    @Test("something that is not HTTP is invalid_response")
    func notHTTP() async throws {
        let server = try ReplayHTTPServer([.raw("SSH-2.0-OpenSSH_9.2\r\n\r\n")])
        #expect(await failure(of: request(server))?.code == .invalidResponse)
    }

    @Test("a connection closed before the body is complete is connection_lost or invalid_response, never an answer")
    func truncated() async throws {
        let server = try ReplayHTTPServer([.raw("HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n{\"a\":")])
        let code = await failure(of: request(server))?.code
        #expect(code == .connectionLost || code == .invalidResponse)
    }

    @Test("a URL that is not http(s) is invalid_url", arguments: ["ftp://127.0.0.1/v1", "file:///etc/passwd"])
    func invalidURL(url: String) async throws {
        let request = HTTPTransportRequest(url: try #require(URL(string: url)))
        #expect(await failure(of: request)?.code == .invalidURL)
    }

    @Test("a redirect is returned as it is, not followed (an API key must not travel to another host)")
    func redirectNotFollowed() async throws {
        let server = try ReplayHTTPServer([
            .json("", status: 307, headers: ["Location": "http://127.0.0.1:9/elsewhere"])
        ])
        let response = try await AsyncHTTPClientTransport.shared.send(request(server), timeout: .seconds(10))
        #expect(response.status == 307)
        #expect(server.requests.count == 1)
    }
}
