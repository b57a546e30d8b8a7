import ArgumentParser
import SwiftDBAI
import SwiftDBAIMCP

/// The databases served, what the metadata file says of them, and the extensions every
/// connection loads.
struct DatabaseOptions: ParsableArguments {
    @Option(name: .long, help: ArgumentHelp(
        "The SQLite database file; repeat as NAME=PATH to serve several (the tools then take a database argument). A single --db keeps the file's name (without extension) as its name.",
        valueName: "[name=]path"), transform: { DatabaseSource(parsing: $0) })
    var db: [DatabaseSource] = []

    @Option(name: .long, help: ArgumentHelp(
        "A Datasette metadata file (JSON or YAML): descriptions of databases, tables and columns, hidden tables (hidden and unreadable), and canned queries served as tools.",
        valueName: "file"))
    var metadata: String?

    @Option(name: .customLong("load-extension"), help: ArgumentHelp(
        "A SQLite extension (shared library, e.g. vec0.so) loaded on every connection; repeat for several. The SQL function load_extension() stays refused.",
        valueName: "path"))
    var loadExtension: [String] = []

    /// Print the bundle manifest (`mcp-manifest.json`) and exit, serving nothing.
    @Flag(name: .customLong("print-manifest"), help: .hidden)
    var printManifest = false

    /// Checked first of all the groups: a missing `--db` is what a bare command line lacks.
    func validate() throws {
        guard printManifest || !db.isEmpty else {
            throw ValidationError("Missing --db: give the SQLite file to serve.")
        }
    }

    /// The metadata file, read and checked; nil without `--metadata`.
    func loadMetadata() throws -> DatasetteMetadata? {
        try metadata.map { try DatasetteMetadata.load(path: $0) }
    }

    var extensions: [SQLiteExtension] { loadExtension.map { SQLiteExtension(path: $0) } }
}
