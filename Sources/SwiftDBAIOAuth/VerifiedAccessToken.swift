import Crypto
import Foundation
import SwiftDBAIPrimitives

/// What a verified access token says about its bearer.
public struct VerifiedAccessToken: Sendable, Hashable {
    /// `iss`: the authorization server that issued it.
    public let issuer: String
    /// `sub`: the user (or, for a client acting for itself, the client).
    public let subject: String
    /// `client_id`: the client the token was issued to (nil when the server did not say).
    public let clientID: String?
    /// The scopes granted (`scope`, or `scp`).
    public let scopes: Set<String>
    /// `exp`, in seconds since 1970.
    public let expiresAt: Double
    /// A digest of the issuer and subject (16 bytes, hexadecimal): the key of what belongs to
    /// this person (their sessions' and conversations' bindings), computed once per token.
    public let personKey: String

    /// What a verified token says.
    public init(issuer: String, subject: String, clientID: String?, scopes: Set<String>, expiresAt: Double) {
        self.issuer = issuer
        self.subject = subject
        self.clientID = clientID
        self.scopes = scopes
        self.expiresAt = expiresAt
        personKey = Self.personKey(issuer: issuer, subject: subject)
    }

    /// The digest of an issuer and a subject.
    public static func personKey(issuer: String, subject: String) -> String {
        Hexadecimal.string(SHA256.hash(data: Data((issuer + "\u{1F}" + subject).utf8)).prefix(16))
    }
}

/// Why an access token is not accepted.
public enum AccessTokenRefusal: Error, Sendable, Equatable, CustomStringConvertible {
    /// The token is not valid here: malformed, forged, expired, issued by another server or for
    /// another resource, or inactive. The client gets 401 `invalid_token` and signs in again.
    case invalid(String)
    /// The authorization server could not be asked (its metadata, keys or introspection are
    /// unreachable or malformed). The client gets 503 and tries later; nothing is accepted.
    case unavailable(String)

    /// The reason, as the 401 or 503 gives it.
    public var description: String {
        switch self {
        case .invalid(let reason), .unavailable(let reason): reason
        }
    }
}
