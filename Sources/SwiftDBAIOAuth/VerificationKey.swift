import Crypto
import CryptoExtras
import Foundation
import SwiftDBAIPrimitives

/// One public key of the authorization server's key set (a JWK, RFC 7517), with the algorithms
/// it verifies. The key decides the algorithm: a token's `alg` is accepted only when it is one
/// of these, so a token cannot choose how it is checked (RFC 8725 §3.1).
struct VerificationKey: Sendable {
    enum Material: Sendable {
        case rsa(_RSA.Signing.PublicKey)
        case p256(P256.Signing.PublicKey)
        case p384(P384.Signing.PublicKey)
        case p521(P521.Signing.PublicKey)
        case ed25519(Curve25519.Signing.PublicKey)
    }

    /// The key's `kid`, when it has one.
    let id: String?
    let material: Material
    /// The algorithms the key verifies: the JWK's own `alg` when it names one, otherwise every
    /// algorithm of the key's type and curve.
    let algorithms: Set<SignatureAlgorithm>

    /// The key of a JWK; nil for a key that cannot verify signatures (a symmetric or private-use
    /// key, one for encryption, an unknown type or curve, an RSA modulus under 2048 bits) or
    /// whose `alg` does not fit its type.
    init?(jwk: JSONObject) {
        if let use = jwk.string("use"), use != "sig" { return nil }
        if let operations = jwk.strings("key_ops"), !operations.contains("verify") { return nil }
        let material: Material
        let family: Set<SignatureAlgorithm>
        switch jwk.string("kty") {
        case "RSA":
            guard let n = jwk.bytes("n"), let e = jwk.bytes("e"), let key = try? _RSA.Signing.PublicKey(n: n, e: e) else { return nil }
            material = .rsa(key)
            family = [.rs256, .rs384, .rs512, .ps256, .ps384, .ps512]
        case "EC":
            guard let x = jwk.bytes("x"), let y = jwk.bytes("y") else { return nil }
            switch jwk.string("crv") {
            case "P-256":
                guard let key = try? P256.Signing.PublicKey(rawRepresentation: x + y) else { return nil }
                (material, family) = (.p256(key), [.es256])
            case "P-384":
                guard let key = try? P384.Signing.PublicKey(rawRepresentation: x + y) else { return nil }
                (material, family) = (.p384(key), [.es384])
            case "P-521":
                guard let key = try? P521.Signing.PublicKey(rawRepresentation: x + y) else { return nil }
                (material, family) = (.p521(key), [.es512])
            default: return nil
            }
        case "OKP":
            guard jwk.string("crv") == "Ed25519", let x = jwk.bytes("x"),
                  let key = try? Curve25519.Signing.PublicKey(rawRepresentation: x) else { return nil }
            (material, family) = (.ed25519(key), [.edDSA])
        default:
            return nil
        }
        if let name = jwk.string("alg") {
            guard let algorithm = SignatureAlgorithm(header: name), family.contains(algorithm) else { return nil }
            algorithms = [algorithm]
        } else {
            algorithms = family
        }
        id = jwk.string("kid")
        self.material = material
    }

    /// True when `signature` is `algorithm`'s signature of `input` by this key.
    func verifies(_ signature: Data, of input: Data, algorithm: SignatureAlgorithm) -> Bool {
        guard algorithms.contains(algorithm) else { return false }
        switch (material, algorithm) {
        case (.rsa(let key), .rs256): return key.isValid(signature, SHA256.hash(data: input), padding: .insecurePKCS1v1_5)
        case (.rsa(let key), .rs384): return key.isValid(signature, SHA384.hash(data: input), padding: .insecurePKCS1v1_5)
        case (.rsa(let key), .rs512): return key.isValid(signature, SHA512.hash(data: input), padding: .insecurePKCS1v1_5)
        case (.rsa(let key), .ps256): return key.isValid(signature, SHA256.hash(data: input), padding: .PSS)
        case (.rsa(let key), .ps384): return key.isValid(signature, SHA384.hash(data: input), padding: .PSS)
        case (.rsa(let key), .ps512): return key.isValid(signature, SHA512.hash(data: input), padding: .PSS)
        case (.p256(let key), .es256):
            guard let signature = try? P256.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: SHA256.hash(data: input))
        case (.p384(let key), .es384):
            guard let signature = try? P384.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: SHA384.hash(data: input))
        case (.p521(let key), .es512):
            guard let signature = try? P521.Signing.ECDSASignature(rawRepresentation: signature) else { return false }
            return key.isValidSignature(signature, for: SHA512.hash(data: input))
        case (.ed25519(let key), .edDSA):
            return key.isValidSignature(signature, for: input)
        default:
            return false
        }
    }
}

extension _RSA.Signing.PublicKey {
    fileprivate func isValid(_ signature: Data, _ digest: some Digest, padding: _RSA.Signing.Padding) -> Bool {
        // The signature is exactly the modulus's length in bytes (RFC 8017 §8.2.2).
        guard signature.count == (keySizeInBits + 7) / 8 else { return false }
        return isValidSignature(_RSA.Signing.RSASignature(rawRepresentation: signature), for: digest, padding: padding)
    }
}

extension JSONObject {
    /// A base64url member's bytes.
    fileprivate func bytes(_ name: String) -> Data? {
        string(name).flatMap(Base64URL.decoded)
    }
}
