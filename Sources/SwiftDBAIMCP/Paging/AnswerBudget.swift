import Foundation
import MCP
import SwiftDBAI
import SwiftDBAIMCPKernel

/// The most bytes one answer may take (`--max-result-bytes`): a tool result (its structured
/// content and its text together), a resource read, a prompt, the instructions of `initialize`.
///
/// Sizes are those of the compact JSON encoding the client receives. A little is kept back for
/// the JSON-RPC envelope and the content wrappers, so the whole message stays within the budget.
struct AnswerBudget: Sendable, Hashable {
    /// `--max-result-bytes`.
    let maxBytes: Int

    /// Bytes kept for the envelope: `jsonrpc`, `id`, `result`, `content`, `type`, `isError`.
    static let envelope = 256

    init(maxBytes: Int) {
        self.maxBytes = maxBytes
    }

    init(_ limits: ExecutionLimits) {
        self.init(maxBytes: limits.maxResultBytes)
    }

    /// What the payload of an answer may take.
    var available: Int { max(0, maxBytes - Self.envelope) }

    /// What the rows of a read may take as JSON in its structured content; its text rendering
    /// gets as much, so that the whole answer fits.
    var rowBytes: Int { max(256, (available - 512) / 2) }

    /// The bytes of `value` as compact JSON, as the server writes it (``JSONMessageWriter``:
    /// `\u00XX` for control characters, `.0` on whole reals), counted without encoding it. The
    /// SDK's encoder, which writes the other answers, never takes more.
    static func size(of value: Value) -> Int {
        JSONMessageWriter.size(of: value)
    }

    /// The bytes of `text` as a JSON string (quotes and escapes included).
    static func size(of text: String) -> Int {
        JSONMessageWriter.size(of: text)
    }

    /// The longest head of `text`, cut after a whole line, that takes at most `room` bytes as a
    /// JSON string once `note` (which says it was cut) is appended; each line is measured once.
    static func head(of text: String, fitting room: Int, note: String) -> String {
        var used = size(of: note)
        var kept: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            let cost = size(of: String(line)) - 2 + (kept.isEmpty ? 0 : 2)  // "\n" between lines
            guard used + cost <= room else { break }
            used += cost
            kept.append(line)
        }
        return kept.joined(separator: "\n") + note
    }

    /// Whether an answer of this structured content and text fits.
    func fits(structured: Value?, text: String) -> Bool {
        (structured.map(Self.size(of:)) ?? 0) + Self.size(of: text) <= available
    }
}
