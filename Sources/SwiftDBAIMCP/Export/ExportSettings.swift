/// Where `export` keeps its files, how long and how much.
public struct ExportSettings: Sendable, Hashable {
    /// A directory each export is also written to as a new file (`--export-dir`); nil for none.
    public var directory: String?
    /// How long an export stays readable through `resources/read` (`--export-ttl-seconds`).
    public var timeToLive: Duration
    /// The most bytes the exports kept take together, and one export at most (`--export-max-mb`).
    public var maxBytes: Int

    /// Creates settings: no directory, 15 minutes, 512 MiB.
    public init(directory: String? = nil, timeToLive: Duration = .seconds(900), maxBytes: Int = 512 << 20) {
        self.directory = directory
        self.timeToLive = timeToLive
        self.maxBytes = maxBytes
    }
}
