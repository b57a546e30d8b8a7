import MCP

/// The question a confirmation puts to the user through elicitation (form mode): one boolean,
/// `confirm`. Sent as a request to the client (handshake era) or as an input request of an
/// `InputRequiredResult` (2026-07-28).
enum ConfirmationQuestion {
    /// The params of `elicitation/create`.
    static func params(message: String) -> Value {
        [
            "message": .string(message),
            "requestedSchema": [
                "type": "object",
                "title": "Confirm a change to the database",
                "properties": ["confirm": [
                    "type": "boolean", "title": "Run it",
                    "description": "True to run the statement; false to leave the database unchanged.",
                ]],
                "required": ["confirm"],
            ],
        ]
    }

    /// The user's answer in an `ElicitResult`: confirmed only for `accept` with `confirm: true`.
    static func answer(_ result: Value) -> ElicitationConfirmer.Answer {
        let object = result.objectValue
        let accepted = object?["action"]?.stringValue == "accept"
        let confirmed = object?["content"]?.objectValue?["confirm"]?.boolValue == true
        return accepted && confirmed ? .confirmed : .declined
    }
}
