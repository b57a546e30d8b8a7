import MCP

/// The answer of a `tools/call` that needs the user first, under 2026-07-28 (Multi Round-Trip
/// Requests): thrown by the tool, written by the dispatcher as an `InputRequiredResult`. The
/// client asks the user, then calls the tool again with the same arguments, the answers in
/// `inputResponses` and `requestState` echoed.
struct InputRequired: Error, Sendable {
    /// What to ask, by key (`elicitation/create` requests).
    let inputRequests: [String: Value]
    /// The server's signed state, echoed by the retry.
    let requestState: String

    /// The `InputRequiredResult`.
    var json: Value {
        ["resultType": "input_required", "inputRequests": .object(inputRequests), "requestState": .string(requestState)]
    }
}
