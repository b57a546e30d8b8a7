/// Where `export` writes: the server's store, and `--export-dir` when given.
struct ExportDestination: Sendable {
    let store: ExportStore
    let directory: ExportDirectory?
}
