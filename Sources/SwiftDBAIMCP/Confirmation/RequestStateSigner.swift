import Crypto
import Foundation
import MCP
import SwiftDBAIPrimitives
import SwiftDBAIMCPKernel

/// Signs and checks the `requestState` of 2026-07-28 confirmations: the client echoes it, so it
/// is attacker-controlled input. A state is `base64url(JSON payload) "." base64url(HMAC-SHA256)`:
/// a client can read it but neither forge nor alter it.
///
/// The key is drawn at random when the process starts (no state outlives the process that
/// signed it), or derived from `--state-secret-file` (HKDF-SHA256), so that every replica
/// started with the same secret verifies what another signed.
struct RequestStateSigner: Sendable {
    private let key: SymmetricKey
    /// The key comes from `--state-secret-file`: other replicas share it.
    let isShared: Bool

    /// A signer with a new random 256-bit key.
    init() {
        key = SymmetricKey(size: .bits256)
        isShared = false
    }

    /// A signer whose key is derived from a shared secret (at least 32 bytes).
    init(secret: Data) {
        key = HKDF<SHA256>.deriveKey(
            inputKeyMaterial: SymmetricKey(data: secret), info: Data("dbai-mcp requestState v1".utf8), outputByteCount: 32)
        isShared = true
    }

    /// Where a state this signer refuses may come from, for the messages.
    var foreignOrigin: String {
        isShared ? "altered, or from a server not sharing its --state-secret-file" : "altered, or from another server process"
    }

    /// The signed state of `payload`.
    func sign(_ payload: Value) -> String {
        let body = JSONMessageWriter.data(payload)
        let code = HMAC<SHA256>.authenticationCode(for: body, using: key)
        return Base64URL.encoded(body) + "." + Base64URL.encoded(Data(code))
    }

    /// The payload of a state this signer signed; nil for anything else (malformed, altered,
    /// or signed with another key). The comparison takes constant time.
    func verify(_ state: String) -> [String: Value]? {
        let parts = state.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 2, let body = Base64URL.decoded(String(parts[0])), let code = Base64URL.decoded(String(parts[1])),
              HMAC<SHA256>.isValidAuthenticationCode(code, authenticating: body, using: key),
              case .object(let payload)? = try? JSONMessageParser.parse(body) else {
            return nil
        }
        return payload
    }
}
