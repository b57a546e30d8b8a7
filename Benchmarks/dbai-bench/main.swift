import Foundation

// Times the foundation of SwiftDBAI: schema introspection and statement classification.
// Run through `Scripts/bench-foundation`. Exits non-zero only when the benchmark cannot run;
// missed goals are reported as FAIL lines.

do {
    var benchmark = FoundationBenchmark(options: BenchmarkOptions.parse(Array(CommandLine.arguments.dropFirst())))
    let missedGoals = try await benchmark.run()
    print("")
    print(missedGoals.isEmpty
        ? "All goals met."
        : "Missed goals (\(missedGoals.count)): " + missedGoals.joined(separator: "; "))
} catch {
    FileHandle.standardError.write(Data("dbai-bench: cannot run: \(error)\n".utf8))
    exit(1)
}
