import Foundation

/// Command-line options of `dbai-bench`.
struct BenchmarkOptions {
    var chinookPath: String
    /// Timed introspections per configuration.
    var introspectionRuns = 20
    /// Untimed introspections before timing.
    var introspectionWarmUps = 2
    /// Timed classifications per statement.
    var classificationIterations = 2000
    /// Generated tables.
    var tableCount = 500

    static let usage = """
        usage: dbai-bench [--chinook PATH] [--runs N] [--iterations N] [--tables N]
          --chinook PATH    Chinook SQLite file (default: ../shared/data/chinook.sqlite from the repository root)
          --runs N          timed introspections per configuration (default 20, after 2 warm-ups)
          --iterations N    timed classifications per statement (default 2000)
          --tables N        tables in the generated database (default 500)
        """

    /// The repository root, from this file's location (Benchmarks/dbai-bench/…).
    static var repositoryRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
    }

    static var defaultChinookPath: String {
        repositoryRoot.appendingPathComponent("../shared/data/chinook.sqlite").standardizedFileURL.path
    }

    /// Parses the arguments; prints usage and exits on `--help` or a malformed argument.
    static func parse(_ arguments: [String]) -> BenchmarkOptions {
        var options = BenchmarkOptions(chinookPath: defaultChinookPath)
        var remaining = arguments[...]
        while let argument = remaining.popFirst() {
            switch argument {
            case "--help", "-h":
                print(usage)
                exit(0)
            case "--chinook":
                options.chinookPath = value(after: argument, from: &remaining)
            case "--runs":
                options.introspectionRuns = positiveInteger(after: argument, from: &remaining)
            case "--iterations":
                options.classificationIterations = positiveInteger(after: argument, from: &remaining)
            case "--tables":
                options.tableCount = positiveInteger(after: argument, from: &remaining)
            default:
                fail("unknown argument \(argument)")
            }
        }
        return options
    }

    private static func value(after flag: String, from remaining: inout ArraySlice<String>) -> String {
        guard let value = remaining.popFirst() else { fail("\(flag) needs a value") }
        return value
    }

    private static func positiveInteger(after flag: String, from remaining: inout ArraySlice<String>) -> Int {
        let text = value(after: flag, from: &remaining)
        guard let number = Int(text), number > 0 else { fail("\(flag) needs a positive integer, not \(text)") }
        return number
    }

    private static func fail(_ message: String) -> Never {
        FileHandle.standardError.write(Data("dbai-bench: \(message)\n\(usage)\n".utf8))
        exit(2)
    }
}
