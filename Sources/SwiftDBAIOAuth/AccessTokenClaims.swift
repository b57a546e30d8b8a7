import Foundation

/// The claims checks of an access token (RFC 9068 §4, RFC 8707), the same for a JWT's payload
/// and an introspection answer (RFC 7662 §2.2).
struct AccessTokenClaims {
    let settings: OAuthResourceSettings

    /// The bearer the claims describe, at `now` (seconds since 1970).
    ///
    /// - Parameter requireIssuer: A JWT must name its issuer; an introspection answer need not
    ///   (the introspecting server is the issuer), but when it does it must be ours.
    /// - Throws: ``AccessTokenRefusal/invalid(_:)`` naming the claim that fails.
    func check(_ claims: JSONObject, now: Double, requireIssuer: Bool) throws(AccessTokenRefusal) -> VerifiedAccessToken {
        let leeway = Double(settings.leeway.components.seconds)
        switch claims.string("iss") {
        case settings.issuer?: break
        case nil where !requireIssuer && !claims.has("iss"): break
        default: throw .invalid("the token was issued by another authorization server (this server accepts tokens of \(settings.issuer)).")
        }
        guard let audiences = claims.strings("aud"), audiences.contains(where: { Self.sameResource($0, settings.resource) }) else {
            throw .invalid("the token is not meant for this resource: its audience (aud) does not include \(settings.resource). Request it with resource=\(settings.resource) (RFC 8707).")
        }
        guard let expiry = claims.number("exp") else { throw .invalid("the token has no expiry (exp).") }
        guard now < expiry + leeway else { throw .invalid("the token has expired; refresh it or sign in again.") }
        if claims.has("nbf") {
            guard let notBefore = claims.number("nbf"), now + leeway >= notBefore else {
                throw .invalid("the token is not valid yet (nbf).")
            }
        }
        if claims.has("iat") {
            guard let issuedAt = claims.number("iat"), issuedAt <= now + leeway else {
                throw .invalid("the token claims to be issued in the future (iat).")
            }
        }
        guard let subject = claims.string("sub"), !subject.isEmpty else { throw .invalid("the token names no subject (sub).") }
        return VerifiedAccessToken(
            issuer: claims.string("iss") ?? settings.issuer, subject: subject,
            clientID: claims.string("client_id") ?? claims.string("azp"), scopes: Self.scopes(of: claims), expiresAt: expiry)
    }

    /// `scope` (RFC 9068, a space-separated string), or `scp` (a string or a list, as some
    /// identity providers write it).
    static func scopes(of claims: JSONObject) -> Set<String> {
        if let scope = claims.string("scope") { return Set(scope.split(separator: " ").map(String.init)) }
        if let list = claims.strings("scp") { return Set(list.flatMap { $0.split(separator: " ").map(String.init) }) }
        return []
    }

    /// True when two resource identifiers name the same resource: equal, up to a trailing slash.
    static func sameResource(_ a: String, _ b: String) -> Bool {
        func trimmed(_ text: String) -> Substring {
            var text = Substring(text)
            while text.hasSuffix("/") { text = text.dropLast() }
            return text
        }
        return trimmed(a) == trimmed(b)
    }
}
