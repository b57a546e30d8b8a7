/// Prints benchmark figures as aligned plain-text lines, each with its goal and verdict.
struct BenchmarkReport {
    private(set) var missedGoals: [String] = []

    private static let labelWidth = 46

    /// Prints a section title, its notes, then the column headings.
    func section(_ title: String, notes: [String] = []) {
        print("")
        print(title)
        for note in notes { print("  " + note) }
        print(Self.pad("", Self.labelWidth + 2)
            + [Self.padLeft("median", 10), Self.padLeft("p90", 10), Self.padLeft("min", 10),
               Self.padLeft("runs", 7), "   goal"].joined())
    }

    /// Prints one line; `goalNanoseconds` applies to the median. Nil means informational.
    mutating func line(_ label: String, _ summary: TimingSummary, goalNanoseconds: Double?) {
        var text = "  " + Self.pad(label, Self.labelWidth)
            + Self.padLeft(Self.format(summary.median), 10)
            + Self.padLeft(Self.format(summary.p90), 10)
            + Self.padLeft(Self.format(summary.minimum), 10)
            + Self.padLeft(String(summary.count), 7)
        if let goalNanoseconds {
            let passed = summary.median < goalNanoseconds
            text += "   " + Self.pad("< " + Self.formatGoal(goalNanoseconds), 10) + (passed ? "PASS" : "FAIL")
            if !passed { missedGoals.append(label) }
        } else {
            text += "   (no goal, informational)"
        }
        print(text)
    }

    /// A goal without trailing zeros: `100 ms`, `5 ms`, `50 µs`.
    static func formatGoal(_ nanoseconds: Double) -> String {
        let formatted = format(nanoseconds)
        guard let space = formatted.firstIndex(of: " "), formatted[..<space].contains(".") else { return formatted }
        var number = formatted[..<space]
        while number.last == "0" { number.removeLast() }
        if number.last == "." { number.removeLast() }
        return String(number + formatted[space...])
    }

    /// A duration with a unit that keeps three significant figures readable.
    static func format(_ nanoseconds: Double) -> String {
        switch nanoseconds {
        case ..<1_000: fixed(nanoseconds, 0) + " ns"
        case ..<1_000_000: fixed(nanoseconds / 1_000, nanoseconds < 10_000 ? 2 : 1) + " µs"
        case ..<1_000_000_000: fixed(nanoseconds / 1_000_000, nanoseconds < 10_000_000 ? 2 : 1) + " ms"
        default: fixed(nanoseconds / 1_000_000_000, 2) + " s"
        }
    }

    static func fixed(_ value: Double, _ decimals: Int) -> String {
        var scale = 1.0
        for _ in 0..<decimals { scale *= 10 }
        let scaled = Int((value * scale).rounded())
        guard decimals > 0 else { return String(scaled) }
        let whole = scaled / Int(scale)
        let fraction = String(scaled % Int(scale))
        return "\(whole)." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    static func pad(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : text + String(repeating: " ", count: width - text.count)
    }

    static func padLeft(_ text: String, _ width: Int) -> String {
        text.count >= width ? text : String(repeating: " ", count: width - text.count) + text
    }
}
