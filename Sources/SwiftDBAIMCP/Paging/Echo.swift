/// What a client sent, quoted back in a message: at most ``limit`` characters, so that a huge
/// name, search or URI cannot make an answer exceed the budget.
enum Echo {
    static let limit = 120

    static func clipped(_ text: String) -> String {
        text.count <= limit ? text : String(text.prefix(limit - 1)) + "…"
    }
}
