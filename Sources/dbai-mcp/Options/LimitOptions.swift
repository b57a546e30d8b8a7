import ArgumentParser
import SwiftDBAI
import SwiftDBAIMCP

/// How much a statement may return, build and take: rows, bytes, memory and time.
struct LimitOptions: ParsableArguments {
    @Option(name: .customLong("max-rows"), help: "The most rows a read returns.")
    var maxRows: Int = 500

    @Option(name: .customLong("max-result-bytes"), help: ArgumentHelp(
        "The most bytes of any one answer (a tool result's JSON and text together, a resource, a prompt; at least 4096). A read's rows get about half, its text the rest: beyond, results say truncated_by: bytes with next_cursor; long values are clipped. Schemas that do not fit come as a catalog in pages.",
        valueName: "bytes"))
    var maxResultBytes: Int = ExecutionLimits.defaultMaxResultBytes

    @Option(name: .customLong("max-value-bytes"), help: ArgumentHelp(
        "The largest string or blob a statement may build or read (SQLite's length limit).", valueName: "bytes"))
    var maxValueBytes: Int = ExecutionLimits.defaultMaxValueBytes

    @Option(name: .customLong("sqlite-memory-mb"), help: ArgumentHelp(
        "SQLite's memory limit for the process, in MiB (0 for none).", valueName: "MiB"))
    var sqliteMemoryMB: Int = DBAIServerConfiguration.defaultSQLiteMemoryLimit >> 20

    @Option(name: .customLong("timeout-ms"), help: "How long a statement may run, in milliseconds.")
    var timeoutMilliseconds: Int = 10_000

    func validate() throws {
        guard maxRows >= 1 else { throw ValidationError("--max-rows must be at least 1.") }
        guard timeoutMilliseconds >= 1 else { throw ValidationError("--timeout-ms must be at least 1.") }
        guard maxResultBytes >= 4_096 else {
            throw ValidationError("--max-result-bytes must be at least 4096: every answer, schema pages included, must fit it.")
        }
        guard maxValueBytes >= 1024 else { throw ValidationError("--max-value-bytes must be at least 1024.") }
        guard sqliteMemoryMB == 0 || sqliteMemoryMB >= 16 else {
            throw ValidationError("--sqlite-memory-mb must be 0 (no limit) or at least 16.")
        }
    }

    var executionLimits: ExecutionLimits {
        ExecutionLimits(
            maxRows: maxRows, maxResultBytes: maxResultBytes, maxValueBytes: maxValueBytes,
            timeout: .milliseconds(timeoutMilliseconds))
    }

    /// SQLite's memory limit in bytes; nil for none.
    var sqliteMemoryLimit: Int? { sqliteMemoryMB == 0 ? nil : sqliteMemoryMB << 20 }
}
