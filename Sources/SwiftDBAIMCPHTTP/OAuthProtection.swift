import Foundation
import HTTPTypes
import MCP
import SwiftDBAIMCP
import SwiftDBAIMCPKernel
import SwiftDBAIOAuth

/// `--oauth-issuer`: the HTTP server is an OAuth 2.1 resource server (MCP authorization).
///
/// - It publishes its Protected Resource Metadata (RFC 9728): `resource` (`--public-url`), the
///   authorization server, the scopes it grants and how tokens are sent.
/// - A request without a valid access token gets 401 with `WWW-Authenticate: Bearer
///   resource_metadata="…", scope="…"`, from which an MCP client discovers where to sign in.
/// - A request beyond the token's scopes gets 403 `insufficient_scope` naming the scopes to ask
///   for (the step-up), and nothing of it runs.
///
/// The token itself is never logged, kept or passed on.
public struct OAuthProtection: Sendable {
    /// Checks the tokens.
    public let verifier: AccessTokenVerifier
    /// The scopes the server grants (`scopes_supported`): those `--allow` can give.
    public let scopes: [AccessScope]

    /// The resource server of `verifier`'s settings, granting `scopes` (``AccessScope/offered(by:)``).
    public init(verifier: AccessTokenVerifier, scopes: [AccessScope]) {
        self.verifier = verifier
        self.scopes = scopes
    }

    /// The canonical URI of the MCP endpoint (`--public-url`).
    var resource: String { verifier.settings.resource }

    /// The absolute URL of the metadata document, as challenges name it.
    var metadataURL: String { OAuthURL.protectedResourceMetadata(resource: resource) }

    /// The paths the metadata document is served at: the resource's own (RFC 9728 §3.1), and
    /// the root one clients fall back to.
    var metadataPaths: [String] {
        let own = OAuthURL.protectedResourceMetadataPath(resource: resource)
        return own == Self.rootMetadataPath ? [own] : [own, Self.rootMetadataPath]
    }

    static let rootMetadataPath = "/.well-known/oauth-protected-resource"

    /// The Protected Resource Metadata document.
    var metadataDocument: Data {
        JSONMessageWriter.data([
            "resource": .string(resource),
            "authorization_servers": [.string(verifier.settings.issuer)],
            "scopes_supported": .array(scopes.map { .string($0.rawValue) }),
            "bearer_methods_supported": ["header"],
            "resource_name": "dbai-mcp",
        ])
    }

    /// The scopes a 401 asks for: what the server grants.
    var challengeScope: String {
        scopes.map(\.rawValue).joined(separator: " ")
    }

    /// The caller of a bearer token, or the answer that refuses it: 401 for a missing or
    /// invalid token, 503 when the authorization server cannot be asked.
    func admit(token: String?) async -> Result<CallerIdentity, RefusedRequest> {
        guard let token else {
            return .failure(RefusedRequest(unauthorized(
                "Unauthorized: send Authorization: Bearer <access token>; how to get one is in \(metadataURL).", error: nil)))
        }
        do {
            let verified = try await verifier.verify(token)
            return .success(CallerIdentity(
                issuer: verified.issuer, subject: verified.subject, clientID: verified.clientID, scopes: verified.scopes,
                personKey: verified.personKey))
        } catch {
            switch error {
            case .invalid(let reason):
                return .failure(RefusedRequest(unauthorized("Unauthorized: \(reason)", error: ("invalid_token", reason))))
            case .unavailable(let reason):
                return .failure(RefusedRequest(.error(
                    .serviceUnavailable, "Service Unavailable: the access token cannot be checked now: \(reason)", headers: [.retryAfter: "5"])))
            }
        }
    }

    /// The 403 of a request that needs scopes the caller's token lacks: the challenge names
    /// the token's scopes and the missing ones, so that signing in again loses nothing.
    func insufficientScope(_ needed: [AccessScope], caller: CallerIdentity, id: String) -> HTTPReply {
        let missing = needed.map(\.rawValue).filter { !caller.scopes.contains($0) }
        let offered = Set(scopes.map(\.rawValue))
        let wanted = (caller.scopes.filter(offered.contains) + missing).sorted(by: Self.scopeOrder)
        let message = "Forbidden: this call needs the scope \(missing.joined(separator: " ")), which your access token does not grant; "
            + "sign in again asking for it."
        return .error(
            .forbidden, message, code: IncomingMessage.invalidRequest,
            headers: [.wwwAuthenticate: challenge(error: ("insufficient_scope", message), scope: wanted.joined(separator: " "))], id: id)
    }

    private func unauthorized(_ message: String, error: (code: String, description: String)?) -> HTTPReply {
        .error(.unauthorized, message, headers: [.wwwAuthenticate: challenge(error: error, scope: challengeScope)])
    }

    /// `Bearer error="…", error_description="…", resource_metadata="…", scope="…"` (RFC 6750 §3,
    /// RFC 9728 §5.1).
    func challenge(error: (code: String, description: String)?, scope: String) -> String {
        var parameters: [String] = []
        if let error {
            parameters.append("error=\"\(error.code)\"")
            parameters.append("error_description=\"\(Self.quotable(error.description))\"")
        }
        parameters.append("resource_metadata=\"\(Self.quotable(metadataURL))\"")
        if !scope.isEmpty { parameters.append("scope=\"\(scope)\"") }
        return "Bearer " + parameters.joined(separator: ", ")
    }

    /// Text fit for a quoted challenge parameter: printable ASCII without `"` and `\` (RFC 6750
    /// §3's error_description), at most 300 characters.
    private static func quotable(_ text: String) -> String {
        String(text.unicodeScalars.map { scalar -> Character in
            (0x20...0x7E).contains(scalar.value) && scalar != "\"" && scalar != "\\" ? Character(scalar) : "'"
        }.prefix(300))
    }

    private static func scopeOrder(_ a: String, _ b: String) -> Bool {
        switch (AccessScope(rawValue: a), AccessScope(rawValue: b)) {
        case (let x?, let y?): x < y
        case (.some, nil): true
        case (nil, .some): false
        case (nil, nil): a < b
        }
    }
}

/// The answer to a request the gate does not let through.
struct RefusedRequest: Error {
    let reply: HTTPReply

    init(_ reply: HTTPReply) {
        self.reply = reply
    }
}
