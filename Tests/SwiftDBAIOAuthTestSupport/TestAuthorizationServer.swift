import Crypto
import CryptoExtras
import Foundation
import SwiftDBAIOAuth
import SwiftDBAIPrimitives

/// A signing key of the tests' authorization server.
public struct TestSigningKey: Sendable {
    public enum Material: Sendable {
        case rsa(_RSA.Signing.PrivateKey)
        case p256(P256.Signing.PrivateKey)
        case ed25519(Curve25519.Signing.PrivateKey)
    }

    public let kid: String
    public let material: Material

    public init(kid: String, material: Material, jwkAlgorithm: String?) {
        self.kid = kid
        self.material = material
        self.jwkAlgorithm = jwkAlgorithm
    }
    /// The `alg` the JWK names; nil leaves it out (the key's type then decides).
    public var jwkAlgorithm: String?

    public static func rsa(_ kid: String) throws -> TestSigningKey {
        TestSigningKey(kid: kid, material: .rsa(try _RSA.Signing.PrivateKey(keySize: .bits2048)), jwkAlgorithm: "RS256")
    }
    public static func p256(_ kid: String) -> TestSigningKey {
        TestSigningKey(kid: kid, material: .p256(P256.Signing.PrivateKey()), jwkAlgorithm: "ES256")
    }
    public static func ed25519(_ kid: String) -> TestSigningKey {
        TestSigningKey(kid: kid, material: .ed25519(Curve25519.Signing.PrivateKey()), jwkAlgorithm: "EdDSA")
    }

    /// The algorithm tokens signed with this key name.
    public var algorithm: String {
        switch material {
        case .rsa: "RS256"
        case .p256: "ES256"
        case .ed25519: "EdDSA"
        }
    }

    /// The public JWK.
    public var jwk: [String: Any] {
        var key: [String: Any]
        switch material {
        case .rsa(let privateKey):
            // The primitives of a key generated just now are always readable.
            let primitives = (try? privateKey.publicKey.getKeyPrimitives())
            key = ["kty": "RSA", "n": Base64URL.encoded(primitives?.modulus ?? Data()), "e": Base64URL.encoded(primitives?.publicExponent ?? Data())]
        case .p256(let privateKey):
            let raw = privateKey.publicKey.rawRepresentation
            key = ["kty": "EC", "crv": "P-256", "x": Base64URL.encoded(raw.prefix(32)), "y": Base64URL.encoded(raw.suffix(32))]
        case .ed25519(let privateKey):
            key = ["kty": "OKP", "crv": "Ed25519", "x": Base64URL.encoded(privateKey.publicKey.rawRepresentation)]
        }
        key["kid"] = kid
        key["use"] = "sig"
        if let jwkAlgorithm { key["alg"] = jwkAlgorithm }
        return key
    }

    /// The signature of `input` with this key.
    public func sign(_ input: Data) throws -> Data {
        switch material {
        case .rsa(let key): try key.signature(for: SHA256.hash(data: input), padding: .insecurePKCS1v1_5).rawRepresentation
        case .p256(let key): try key.signature(for: SHA256.hash(data: input)).rawRepresentation
        case .ed25519(let key): try key.signature(for: input)
        }
    }
}

/// A token built part by part, so that tests can forge any of them.
public enum TestToken {
    public static func encode(_ object: [String: Any]) throws -> String {
        Base64URL.encoded(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]))
    }

    /// A signed compact JWT.
    public static func make(header: [String: Any], claims: [String: Any], key: TestSigningKey) throws -> String {
        let input = try encode(header) + "." + encode(claims)
        return input + "." + Base64URL.encoded(try key.sign(Data(input.utf8)))
    }
}

/// The tests' authorization server as the verifier reaches it: metadata documents, a key set
/// and an introspection endpoint, served from memory, counting the requests.
public final class ScriptedAuthorizationServer: OAuthHTTPFetching, @unchecked Sendable {
    public let issuer: String
    private let lock = NSLock()
    private var keys: [TestSigningKey]
    private var servesRFC8414 = true
    private var servesOIDC = true
    private var requests: [String] = []
    /// Opaque tokens the introspection endpoint knows, with their claims.
    private var opaque: [String: [String: Any]] = [:]
    /// The issuer the metadata documents name (a misconfigured server names another).
    public var documentIssuer: String?
    /// The `jwks_uri` the metadata documents name (nil: the issuer's `/jwks`).
    public var jwksURIOverride: String?

    public init(issuer: String = "https://auth.example.com", keys: [TestSigningKey]) {
        self.issuer = issuer
        self.keys = keys
    }

    public func setKeys(_ keys: [TestSigningKey]) { lock.withLock { self.keys = keys } }
    public func key(_ kid: String) -> TestSigningKey? { lock.withLock { keys.first { $0.kid == kid } } }
    public func setDiscovery(rfc8414: Bool, oidc: Bool) { lock.withLock { (servesRFC8414, servesOIDC) = (rfc8414, oidc) } }
    public func addOpaque(_ token: String, claims: [String: Any]) { lock.withLock { opaque[token] = claims } }
    /// The URLs asked, in order.
    public var asked: [String] { lock.withLock { requests } }
    public func count(_ suffix: String) -> Int { asked.filter { $0.hasSuffix(suffix) }.count }

    public func fetch(_ request: OAuthHTTPRequest) async throws -> OAuthHTTPResponse {
        try lock.withLock {
            requests.append(request.url)
            let metadata: [String: Any] = [
                "issuer": documentIssuer ?? issuer, "jwks_uri": jwksURIOverride ?? issuer + "/jwks", "introspection_endpoint": issuer + "/introspect",
            ]
            switch request.url {
            case issuer.replacingOccurrences(of: "example.com", with: "example.com/.well-known/oauth-authorization-server") where servesRFC8414,
                 issuer.replacingOccurrences(of: "example.com", with: "example.com/.well-known/openid-configuration") where servesOIDC,
                 issuer + "/.well-known/openid-configuration" where servesOIDC:
                return OAuthHTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: metadata))
            case issuer + "/jwks":
                return OAuthHTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: ["keys": keys.map(\.jwk)]))
            case issuer + "/introspect":
                guard request.headers["Authorization"] == "Basic " + Data("dbai-rs:rs-secret".utf8).base64EncodedString() else {
                    return OAuthHTTPResponse(status: 401, body: Data("{}".utf8))
                }
                let form = String(decoding: request.body, as: UTF8.self)
                let token = form.split(separator: "&").first { $0.hasPrefix("token=") }.map { String($0.dropFirst(6)) } ?? ""
                let claims = opaque[token.removingPercentEncoding ?? token].map { $0.merging(["active": true]) { a, _ in a } } ?? ["active": false]
                return OAuthHTTPResponse(status: 200, body: try JSONSerialization.data(withJSONObject: claims))
            default:
                return OAuthHTTPResponse(status: 404, body: Data())
            }
        }
    }
}
