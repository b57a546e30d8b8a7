import Foundation
import HTTPTypes
import SwiftDBAIMCPKernel
import SwiftDBAIPrimitives

/// The checks every HTTP request passes before MCP sees it, in order:
///
/// 1. **Host** (DNS rebinding): on a loopback address, the `Host` header must name this machine
///    (`localhost`, 127.0.0.0/8, `[::1]`), so that a web page whose domain was re-pointed at
///    127.0.0.1 cannot talk to the server. → 403
/// 2. **Origin**: a request from a browser carries `Origin`; it must be a loopback origin or
///    one `--allow-origin` names. Requests without `Origin` (not from a browser) pass. → 403
/// 3. **Token**: with `--auth-token-env`, `Authorization: Bearer <token>`, compared in constant
///    time; with `--oauth-issuer`, an OAuth access token (``OAuthProtection``), whose caller the
///    request then carries (the static token, when both are set, is tried first). → 401 (503
///    when the authorization server cannot be asked)
///
/// ``HTTPRequestGateMiddleware`` puts it in front of the MCP routes.
struct HTTPRequestGate: Sendable {
    let options: HTTPServeOptions
    private let expectedToken: [UInt8]?
    private let checksHost: Bool

    init(options: HTTPServeOptions) {
        self.options = options
        expectedToken = options.authToken.map { Array($0.utf8) }
        checksHost = options.address.isLoopback
    }

    /// The request's caller (nil when no OAuth token names one), or the answer that refuses it.
    /// A CORS preflight (`OPTIONS`) carries no credentials: it passes the Host and Origin checks
    /// only, and is answered with no access to anything.
    func admit(_ request: HTTPRequest) async -> Result<CallerIdentity?, RefusedRequest> {
        if let refusal = placeRefusal(request) { return .failure(RefusedRequest(refusal)) }
        guard request.method != .options else { return .success(nil) }
        guard let oauth = options.oauth else {
            return tokenRefusal(request).map { .failure(RefusedRequest($0)) } ?? .success(nil)
        }
        let presented = Self.bearerToken(request.headerFields.first(.authorization))
        if let expectedToken, let presented, Self.constantTimeEqual(Array(presented.utf8), expectedToken) {
            return .success(nil)
        }
        return await oauth.admit(token: presented).map { $0 }
    }

    private func placeRefusal(_ request: HTTPRequest) -> HTTPReply? {
        // HTTP/1.1's Host is the request's authority in HTTPTypes, not one of its fields.
        if checksHost, let host = request.authority, !Self.isLoopbackHostHeader(host) {
            return .error(.forbidden, "Forbidden: the Host header \(Self.shown(host)) does not name this machine (DNS rebinding protection).")
        }
        if let origin = request.headerFields.first(.origin), !isAllowed(origin: origin) {
            return .error(.forbidden, "Forbidden: the origin \(Self.shown(origin)) is not allowed; start the server with --allow-origin \(Self.shown(origin)) to allow it.")
        }
        return nil
    }

    private func tokenRefusal(_ request: HTTPRequest) -> HTTPReply? {
        if let expectedToken {
            guard let presented = Self.bearerToken(request.headerFields.first(.authorization)) else {
                return .error(
                    .unauthorized, "Unauthorized: send Authorization: Bearer <token>.",
                    headers: [.wwwAuthenticate: "Bearer realm=\"dbai-mcp\""])
            }
            guard Self.constantTimeEqual(Array(presented.utf8), expectedToken) else {
                return .error(
                    .unauthorized, "Unauthorized: the bearer token is not valid.",
                    headers: [.wwwAuthenticate: "Bearer realm=\"dbai-mcp\", error=\"invalid_token\""])
            }
        }
        return nil
    }

    /// The CORS fields of a response to a request from an allowed origin (none otherwise).
    func originFields(_ request: HTTPRequest) -> HTTPFields {
        guard let origin = request.headerFields.first(.origin), isAllowed(origin: origin) else { return [:] }
        return [
            .accessControlAllowOrigin: origin, .vary: "Origin",
            .accessControlExposeHeaders: "Mcp-Session-Id, WWW-Authenticate",
        ]
    }

    /// True for a loopback origin or one `--allow-origin` names.
    func isAllowed(origin: String) -> Bool {
        guard let normalized = HTTPOrigin.normalized(origin) else { return false }
        if options.allowedOrigins.contains(normalized) { return true }
        guard normalized.hasPrefix("http://") || normalized.hasPrefix("https://"),
              let host = HTTPOrigin.host(of: normalized) else { return false }
        return LoopbackHost.contains(host)
    }

    /// True when a `Host` header (`name[:port]`, `[v6][:port]`) names this machine.
    static func isLoopbackHostHeader(_ value: String) -> Bool {
        let bytes = HTTPText.trimmed(value.utf8)
        let host: Substring.UTF8View
        if bytes.first == UInt8(ascii: "[") {
            guard let close = bytes.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let port = bytes[bytes.index(after: close)...]
            guard port.isEmpty || (port.first == UInt8(ascii: ":") && isPort(port.dropFirst())) else { return false }
            host = Substring(bytes[bytes.index(after: bytes.startIndex)..<close]).utf8
        } else {
            let colon = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.endIndex
            guard colon == bytes.endIndex || isPort(bytes[bytes.index(after: colon)...]) else { return false }
            host = Substring(bytes[..<colon]).utf8
        }
        return !host.isEmpty && LoopbackHost.contains(String(Substring(host)))
    }

    private static func isPort(_ bytes: some Collection<UInt8>) -> Bool {
        !bytes.isEmpty && bytes.count <= 5 && bytes.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// The token of `Bearer <token>` (scheme case-insensitive), or nil.
    static func bearerToken(_ header: String?) -> String? {
        guard let header else { return nil }
        let parts = HTTPText.trimmed(Substring(header)).split(separator: " ", maxSplits: 1)
        guard parts.count == 2, HTTPText.lowercased(parts[0]) == "bearer" else { return nil }
        let token = HTTPText.trimmed(parts[1])
        return token.isEmpty ? nil : String(token)
    }

    /// Compares in time that depends only on the expected token's length.
    static func constantTimeEqual(_ presented: [UInt8], _ expected: [UInt8]) -> Bool {
        var difference = UInt8(presented.count == expected.count ? 0 : 1)
        for index in expected.indices {
            let byte = index < presented.count ? presented[index] : 0
            difference |= byte ^ expected[index]
        }
        return difference == 0
    }

    /// A header value as shown in a message: at most 100 characters, no control characters.
    private static func shown(_ value: String) -> String {
        String(value.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7F }.map(Character.init).prefix(100))
    }
}
