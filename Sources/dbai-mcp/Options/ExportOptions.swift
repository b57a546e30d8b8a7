import ArgumentParser
import SwiftDBAIMCP

/// Where `export` writes, and how long and how much of it is kept.
struct ExportOptions: ParsableArguments {
    @Option(name: .customLong("export-dir"), help: ArgumentHelp(
        "A directory where each `export` is also written as a new file (never overwriting one, never following a link); without it, exports are read through resources/read only.",
        valueName: "dir"))
    var exportDirectory: String?

    @Option(name: .customLong("export-ttl-seconds"), help: "How long an export stays readable through resources/read.")
    var exportTTLSeconds: Int = 900

    @Option(name: .customLong("export-max-mb"), help: ArgumentHelp(
        "The most MiB the exports kept take together (and one export at most); the oldest are removed first.", valueName: "MiB"))
    var exportMaxMB: Int = 512

    func validate() throws {
        guard exportTTLSeconds >= 1 else { throw ValidationError("--export-ttl-seconds must be at least 1.") }
        guard (1...(1 << 20)).contains(exportMaxMB) else { throw ValidationError("--export-max-mb must be from 1 to 1048576.") }
    }

    var settings: ExportSettings {
        ExportSettings(directory: exportDirectory, timeToLive: .seconds(exportTTLSeconds), maxBytes: exportMaxMB << 20)
    }
}
