/// Text cut to a number of Unicode scalars, with an ellipsis: what a client sent, quoted back in
/// a message (at most ``limit``), and descriptions shortened to fit. Scalars, not characters,
/// so that a character built of many combining marks cannot stretch the cut.
package enum Echo {
    package static let limit = 120

    package static func clipped(_ text: String, to scalars: Int = limit) -> String {
        guard text.unicodeScalars.count > scalars else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.prefix(max(0, scalars - 1)))) + "…"
    }
}
