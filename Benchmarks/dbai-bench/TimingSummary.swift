/// The median, 90th percentile and minimum of repeated timings.
struct TimingSummary {
    /// Every sample, in nanoseconds, sorted ascending.
    let sortedNanoseconds: [Double]

    init(_ samples: [Duration]) {
        precondition(!samples.isEmpty, "a timing summary needs at least one sample")
        sortedNanoseconds = samples.map(\.nanoseconds).sorted()
    }

    var count: Int { sortedNanoseconds.count }

    var median: Double {
        let middle = count / 2
        return count.isMultiple(of: 2)
            ? (sortedNanoseconds[middle - 1] + sortedNanoseconds[middle]) / 2
            : sortedNanoseconds[middle]
    }

    /// Nearest-rank 90th percentile.
    var p90: Double {
        let rank = Int((0.9 * Double(count)).rounded(.up))
        return sortedNanoseconds[max(rank, 1) - 1]
    }

    var minimum: Double { sortedNanoseconds[0] }
}

extension Duration {
    var nanoseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1e9 + Double(attoseconds) / 1e9
    }
}

/// Times `body` `runs` times after `warmUps` untimed calls.
func measure(
    warmUps: Int, runs: Int, _ body: () async throws -> Void
) async rethrows -> TimingSummary {
    let clock = ContinuousClock()
    for _ in 0..<warmUps { try await body() }
    var samples: [Duration] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs {
        let start = clock.now
        try await body()
        samples.append(start.duration(to: clock.now))
    }
    return TimingSummary(samples)
}

/// Times `body` `runs` times after `warmUps` untimed calls, without suspension points, so that
/// per-call times of a few microseconds are not inflated by async machinery.
func measureSynchronously(
    warmUps: Int, runs: Int, _ body: () throws -> Void
) rethrows -> [Duration] {
    let clock = ContinuousClock()
    for _ in 0..<warmUps { try body() }
    var samples: [Duration] = []
    samples.reserveCapacity(runs)
    for _ in 0..<runs {
        let start = clock.now
        try body()
        samples.append(start.duration(to: clock.now))
    }
    return samples
}
