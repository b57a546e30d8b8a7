import Crypto
import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// A write's confirmation under 2026-07-28, as a Multi Round-Trip Request: the first call
/// answers with an `InputRequiredResult` that shows the preview in an elicitation and carries a
/// signed `requestState`; the client asks the user and calls again with the answer.
///
/// The state binds the write (a digest of the tool, its statements and their values), the rows
/// its preview showed (the confirmation token that holds their ``ChangeSignature``, and a digest
/// of it) and an expiry, and is signed (``RequestStateSigner``). The token is single-use, kept
/// by the server: a state is honoured once, accepted or declined.
struct ConfirmationRoundTrip: Sendable {
    /// The answer of the retry's `inputResponses["confirm"]`.
    enum Response: Sendable {
        case accepted
        case declined
    }

    /// The key of the elicitation in `inputRequests` and `inputResponses`.
    static let inputKey = "confirm"

    let signer: RequestStateSigner
    /// The client declared elicitation in this request: it can ask the user.
    let elicits: Bool
    /// The state echoed by a retry.
    let requestState: String?
    /// The user's answer, when the retry carries one.
    let response: Response?

    /// The round trip of one stateless `tools/call`.
    ///
    /// - Throws: -32602 for `inputResponses` or `requestState` of the wrong type.
    init(_ context: ServedRequest, signer: RequestStateSigner) throws(ProtocolError) {
        let requestState = try context.string("requestState")
        let response: Response?
        switch context.params["inputResponses"] {
        case nil, .null?:
            response = nil
        case .object(let responses)?:
            response = responses[Self.inputKey].map { ConfirmationQuestion.answer($0) == .confirmed ? .accepted : .declined }
        default:
            throw .invalidParams("Invalid params: inputResponses must be an object.")
        }
        self.init(
            signer: signer, elicits: context.client.supportsElicitation, requestState: requestState, response: response)
    }

    /// The round trip of a call whose facts are known.
    init(signer: RequestStateSigner, elicits: Bool, requestState: String?, response: Response?) {
        self.signer = signer
        self.elicits = elicits
        self.requestState = requestState
        self.response = response
    }

    /// What a state names once checked.
    struct Claim: Sendable {
        let token: String
        /// ``ChangeSignature/digest`` of the preview's rows.
        let rowsDigest: String
    }

    /// The claim of the echoed state, checked against this write.
    ///
    /// - Throws: -32602 when the state is malformed, altered, signed with another key, for
    ///   another write, or expired: nothing runs.
    func claim(fingerprint: String, now: Date = Date()) throws(ProtocolError) -> Claim? {
        guard let requestState else { return nil }
        let retry = " Nothing was changed; call the tool again without requestState for a new preview."
        guard let payload = signer.verify(requestState), payload["v"] == 1,
              let token = payload["token"]?.stringValue, let rows = payload["rows"]?.stringValue,
              let expiry = payload["exp"]?.intValue, let write = payload["write"]?.stringValue else {
            throw .invalidParams("Invalid params: requestState is not one this server issued (\(signer.foreignOrigin))." + retry)
        }
        guard write == Self.digest(fingerprint) else {
            throw .invalidParams("Invalid params: requestState was issued for a different write (other statements or values)." + retry)
        }
        guard Int(now.timeIntervalSince1970) < expiry else {
            throw .invalidParams("Invalid params: requestState has expired." + retry)
        }
        return Claim(token: token, rowsDigest: rows)
    }

    /// The signed state of a preview: its token, the write and the rows it covers, and what
    /// the caller needs again on the retry (`carried`: `ask`'s statement, so that the model is
    /// not asked again).
    func state(
        token: String, fingerprint: String, signature: ChangeSignature, lifetime: Duration, carried: [String: Value] = [:],
        now: Date = Date()
    ) -> String {
        var payload: [String: Value] = [
            "v": 1,
            "token": .string(token),
            "write": .string(Self.digest(fingerprint)),
            "rows": .string(signature.digest),
            "exp": .int(Int(now.timeIntervalSince1970) + Int(lifetime.components.seconds)),
        ]
        if !carried.isEmpty { payload["carried"] = .object(carried) }
        return signer.sign(.object(payload))
    }

    /// What the echoed state carries for the caller (see ``state(token:fingerprint:signature:lifetime:carried:now:)``),
    /// its signature checked; nil without a state.
    ///
    /// - Throws: -32602 when the state is not one this process signed, or carries nothing.
    func carried() throws(ProtocolError) -> [String: Value]? {
        guard let requestState else { return nil }
        guard let payload = signer.verify(requestState), case .object(let carried)? = payload["carried"] else {
            throw .invalidParams(
                "Invalid params: requestState is not one this server issued for this tool (\(signer.foreignOrigin)). "
                    + "Nothing was changed; call the tool again without requestState.")
        }
        return carried
    }

    /// The `InputRequiredResult` that asks the user to confirm.
    func inputRequired(message: String, state: String) -> InputRequired {
        var params = ConfirmationQuestion.params(message: message).objectValue ?? [:]
        params["mode"] = "form"
        return InputRequired(
            inputRequests: [Self.inputKey: ["method": "elicitation/create", "params": .object(params)]], requestState: state)
    }

    /// SHA-256 of a write's fingerprint, hex.
    static func digest(_ fingerprint: String) -> String {
        SHA256.hash(data: Data(fingerprint.utf8)).map { byte in
            let hex = String(byte, radix: 16)
            return byte < 16 ? "0" + hex : hex
        }.joined()
    }
}
