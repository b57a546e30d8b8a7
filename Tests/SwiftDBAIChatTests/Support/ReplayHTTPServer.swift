import Foundation
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// A tiny HTTP/1.1 server on 127.0.0.1 that answers with scripted responses and records every
/// request, to test provider wire formats without the network.
///
/// Listens on a port the system picks; each connection is handled on its own thread and closed
/// after one response (`Connection: close`). Responses are used in order; when the script runs
/// out, `whenExhausted` answers (a 599 error when there is none).
///
/// ```swift
/// let server = try ReplayHTTPServer([.json(#"{"ok": true}"#)])
/// let url = server.baseURL.appendingPathComponent("v1")
/// ```
final class ReplayHTTPServer: @unchecked Sendable {
    /// One scripted response.
    struct Response: Sendable {
        var status: Int
        var headers: [String: String]
        var body: String
        /// How long to wait after reading the request before answering.
        var delay: Duration?
        /// Bytes sent as they are instead of a status line, headers and body (to test clients
        /// against broken servers).
        var raw: String?

        /// A JSON response.
        static func json(_ body: String, status: Int = 200, headers: [String: String] = [:], delay: Duration? = nil)
            -> Response
        {
            Response(
                status: status, headers: ["Content-Type": "application/json"].merging(headers) { $1 }, body: body,
                delay: delay)
        }

        /// Bytes sent as they are, then the connection closes.
        static func raw(_ bytes: String) -> Response {
            Response(status: 0, headers: [:], body: "", delay: nil, raw: bytes)
        }

        /// A response with any content type.
        static func text(_ body: String, status: Int = 200, contentType: String = "text/plain") -> Response {
            Response(status: status, headers: ["Content-Type": contentType], body: body, delay: nil)
        }
    }

    /// One request as the server read it.
    struct RecordedRequest: Sendable {
        var method: String
        /// The request target (path and query).
        var target: String
        /// Header names in lower case.
        var headers: [String: String]
        var body: Data

        /// The body parsed as JSON (`.null` when it is not JSON).
        var json: JSONValue {
            (try? JSONDecoder().decode(JSONValue.self, from: body)) ?? .null
        }
    }

    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var script: [Response]
    private let whenExhausted: Response?
    private var recorded: [RecordedRequest] = []
    private var inFlight = 0
    private var mostInFlight = 0
    private var stopped = false
    private var requestWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    private let holdUntilConcurrent: Int

    /// Starts a server that answers with `script`, then with `whenExhausted`.
    ///
    /// - Parameter holdUntilConcurrent: Answer nothing until this many requests have been in
    ///   flight at the same time (or 10 s have passed): a client that sends one request at a
    ///   time never gets there.
    init(_ script: [Response], whenExhausted: Response? = nil, holdUntilConcurrent: Int = 0) throws {
        self.script = script
        self.whenExhausted = whenExhausted
        self.holdUntilConcurrent = holdUntilConcurrent
        (listener, port) = try Self.openSocket(listening: true)
        let thread = Thread { [self] in acceptLoop() }
        thread.name = "ReplayHTTPServer:\(port)"
        thread.start()
    }

    deinit {
        stop()
    }

    /// `http://127.0.0.1:PORT`.
    var baseURL: URL {
        URL(string: "http://127.0.0.1:\(port)") ?? URL(fileURLWithPath: "/")
    }

    /// `http://127.0.0.1:PORT/PATH`.
    func url(_ path: String) -> URL {
        URL(string: "http://127.0.0.1:\(port)/\(path)") ?? URL(fileURLWithPath: "/")
    }

    /// Every request received so far, in the order they were read.
    var requests: [RecordedRequest] {
        lock.withLock { recorded }
    }

    /// Returns once `count` requests have been read.
    func waitForRequests(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = lock.withLock {
                if recorded.count >= count { return true }
                requestWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }

    /// The most requests that were being answered at the same time (read, not yet answered).
    var mostConcurrentRequests: Int {
        lock.withLock { mostInFlight }
    }

    /// Stops listening. Connections being answered finish on their own.
    func stop() {
        let wasStopped = lock.withLock {
            defer { stopped = true }
            return stopped
        }
        guard !wasStopped else { return }
        _ = shutdown(listener, Int32(SHUT_RDWR))
        _ = close(listener)
    }

    /// A port on 127.0.0.1 that refuses connections for as long as the value lives: the port is
    /// bound but nothing listens on it. Holding it bound keeps the system from giving it to a
    /// server of a test running at the same time (a port merely closed could be handed out again
    /// and answer).
    final class RefusingPort: @unchecked Sendable {
        let port: UInt16
        private let socket: Int32

        init() throws {
            (socket, port) = try ReplayHTTPServer.openSocket(listening: false)
        }

        deinit {
            _ = close(socket)
        }
    }

    // MARK: - Sockets

    struct SocketError: Error, CustomStringConvertible {
        var call: String
        var code: Int32
        var description: String { "\(call) failed: errno \(code)" }
    }

    /// A TCP socket bound to a port of 127.0.0.1 the system picks, listening or not.
    fileprivate static func openSocket(listening: Bool) throws -> (Int32, UInt16) {
        #if os(Linux)
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        let fd = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard fd >= 0 else { throw SocketError(call: "socket", code: errno) }
        if listening {
            var reuse: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &reuse, socklen_t(MemoryLayout<Int32>.size))
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(0).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            _ = close(fd)
            throw SocketError(call: "bind", code: code)
        }
        guard !listening || listen(fd, 128) == 0 else {
            let code = errno
            _ = close(fd)
            throw SocketError(call: "listen", code: code)
        }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let named = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard named == 0 else {
            let code = errno
            _ = close(fd)
            throw SocketError(call: "getsockname", code: code)
        }
        return (fd, UInt16(bigEndian: address.sin_port))
    }

    private func acceptLoop() {
        while true {
            let connection = accept(listener, nil, nil)
            if connection < 0 {
                if errno == EINTR { continue }
                return  // The listener was shut down.
            }
            let thread = Thread { [self] in handle(connection) }
            thread.start()
        }
    }

    private func handle(_ connection: Int32) {
        defer {
            _ = shutdown(connection, Int32(SHUT_RDWR))
            _ = close(connection)
        }
        guard let request = readRequest(connection) else { return }
        let (response, satisfied): (Response, [CheckedContinuation<Void, Never>]) = lock.withLock {
            recorded.append(request)
            let satisfied = requestWaiters.filter { $0.count <= recorded.count }.map(\.continuation)
            requestWaiters.removeAll { $0.count <= recorded.count }
            inFlight += 1
            mostInFlight = max(mostInFlight, inFlight)
            if !script.isEmpty {
                return (script.removeFirst(), satisfied)
            }
            return (whenExhausted ?? .json(#"{"error": {"message": "no scripted response left"}}"#, status: 599), satisfied)
        }
        satisfied.forEach { $0.resume() }
        let holdEnds = Date().addingTimeInterval(10)
        while lock.withLock({ mostInFlight < holdUntilConcurrent }), Date() < holdEnds {
            Thread.sleep(forTimeInterval: 0.005)
        }
        if let delay = response.delay {
            Thread.sleep(forTimeInterval: Double(delay.components.seconds) + Double(delay.components.attoseconds) / 1e18)
        }
        lock.withLock { inFlight -= 1 }
        write(response, to: connection)
    }

    /// Reads the request line, the headers and a `Content-Length` body.
    private func readRequest(_ connection: Int32) -> RecordedRequest? {
        var buffer = Data()
        var headerEnd: Range<Data.Index>?
        while headerEnd == nil {
            guard let chunk = receive(connection) else { return nil }
            buffer.append(chunk)
            headerEnd = buffer.range(of: Data("\r\n\r\n".utf8))
        }
        guard let headerEnd else { return nil }
        let head = String(decoding: buffer[..<headerEnd.lowerBound], as: UTF8.self)
        var lines = head.components(separatedBy: "\r\n")
        let requestLine = lines.removeFirst().split(separator: " ", maxSplits: 2).map(String.init)
        guard requestLine.count >= 2 else { return nil }
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            headers[name] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        if headers["expect"]?.lowercased() == "100-continue" {
            sendAll(Data("HTTP/1.1 100 Continue\r\n\r\n".utf8), to: connection)
        }
        let length = headers["content-length"].flatMap { Int($0) } ?? 0
        var body = Data(buffer[headerEnd.upperBound...])
        while body.count < length {
            guard let chunk = receive(connection) else { return nil }
            body.append(chunk)
        }
        return RecordedRequest(method: requestLine[0], target: requestLine[1], headers: headers, body: body.prefix(length))
    }

    private func receive(_ connection: Int32) -> Data? {
        var bytes = [UInt8](repeating: 0, count: 16 * 1024)
        let count = bytes.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Data(bytes[..<count])
    }

    private func write(_ response: Response, to connection: Int32) {
        if let raw = response.raw {
            sendAll(Data(raw.utf8), to: connection)
            return
        }
        let body = Data(response.body.utf8)
        var head = "HTTP/1.1 \(response.status) \(response.status == 200 ? "OK" : "Status")\r\n"
        for (name, value) in response.headers {
            head += "\(name): \(value)\r\n"
        }
        head += "Content-Length: \(body.count)\r\nConnection: close\r\n\r\n"
        sendAll(Data(head.utf8) + body, to: connection)
    }

    private func sendAll(_ data: Data, to connection: Int32) {
        #if os(Linux)
        let flags = Int32(MSG_NOSIGNAL)
        #else
        let flags: Int32 = 0
        var noSignal: Int32 = 1
        _ = setsockopt(connection, SOL_SOCKET, SO_NOSIGPIPE, &noSignal, socklen_t(MemoryLayout<Int32>.size))
        #endif
        var offset = 0
        data.withUnsafeBytes { raw in
            while offset < raw.count {
                let sent = send(connection, raw.baseAddress?.advanced(by: offset), raw.count - offset, flags)
                if sent <= 0 { return }
                offset += sent
            }
        }
    }
}

