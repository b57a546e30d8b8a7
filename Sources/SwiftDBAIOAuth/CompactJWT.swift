import Foundation
import SwiftDBAIPrimitives

/// A JWT in the JWS compact serialization (`header.payload.signature`, RFC 7515 §7.1), split
/// and decoded but not yet trusted.
struct CompactJWT: Sendable {
    let header: JSONObject
    let claims: JSONObject
    /// What the signature covers: the first two parts as they came.
    let signingInput: Data
    let signature: Data

    /// The parts of `token`; nil when it does not have the form of a JWT at all (three base64url
    /// parts, the first two JSON objects), as an opaque token does not.
    init?(_ token: String) {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3, let headerBytes = Base64URL.decoded(String(parts[0])),
              let header = JSONObject(headerBytes), let payload = Base64URL.decoded(String(parts[1])),
              let claims = JSONObject(payload), let signature = Base64URL.decoded(String(parts[2]))
        else { return nil }
        self.header = header
        self.claims = claims
        self.signingInput = Data(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        self.signature = signature
    }
}
