import SwiftDBAI

/// Counts the model calls of one answer and sums the tokens they report.
struct UsageMeter: Sendable {
    /// Model calls answered.
    private(set) var calls = 0
    /// The tokens reported, summed; nil when no call reported any.
    private(set) var usage: TokenUsage?

    mutating func record(_ response: LanguageModelResponse) {
        calls += 1
        guard let reported = response.usage else { return }
        usage = usage.map { $0 + reported } ?? reported
    }
}
