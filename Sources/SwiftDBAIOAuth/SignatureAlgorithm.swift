/// The JWS algorithms an access token may be signed with. Every one is asymmetric: `none` and
/// the HMAC family (`HS256`, which a forger keys with the server's public key) are not here, so
/// no token signed with them ever verifies.
public enum SignatureAlgorithm: String, Sendable, CaseIterable {
    case rs256 = "RS256", rs384 = "RS384", rs512 = "RS512"
    case ps256 = "PS256", ps384 = "PS384", ps512 = "PS512"
    case es256 = "ES256", es384 = "ES384", es512 = "ES512"
    /// Ed25519 (RFC 8037; `Ed25519` is its fully specified name, RFC 9864).
    case edDSA = "EdDSA"

    /// The algorithm a JWS header names; nil for any other (`none`, `HS256`…).
    init?(header name: String) {
        if name == "Ed25519" {
            self = .edDSA
        } else {
            self.init(rawValue: name)
        }
    }
}
