/// Limits applied to every statement.
///
/// ```swift
/// let limits = ExecutionLimits(maxRows: 200, maxResultBytes: 64 * 1024, timeout: .seconds(5))
/// ```
public struct ExecutionLimits: Sendable, Hashable {
    /// The most rows a read returns; further rows are not fetched and the result is `truncated`.
    public var maxRows: Int
    /// The most bytes the rows of a read take, counted as their JSON encoding. Rows beyond it are
    /// not fetched (the result is `truncated` by ``QueryResult/TruncationReason/bytes``), so
    /// memory stays bounded whatever the statement returns.
    public var maxResultBytes: Int
    /// The most bytes of one text or blob value in a result; longer values are clipped. Never
    /// more than ``maxResultBytes`` divided by the number of columns.
    public var maxCellBytes: Int
    /// The largest string or blob SQLite may build or read (`SQLITE_LIMIT_LENGTH`): a function
    /// call or a stored value beyond it fails with ``SwiftDBAIError/valueTooLarge(limit:)``
    /// instead of taking the process's memory.
    public var maxValueBytes: Int
    /// How long a statement may run before it is interrupted.
    public var timeout: Duration
    /// How long a statement waits for another connection's lock before failing with
    /// ``SwiftDBAIError/databaseBusy(message:)``.
    public var busyTimeout: Duration

    /// The default byte budget of a result: 32 KiB of JSON, about 10,000 tokens for a language
    /// model. A tool result carries it twice (structured and as text), which stays under the
    /// 25,000 tokens where clients such as Claude Code start to warn.
    public static let defaultMaxResultBytes = 32 * 1024
    /// The default size limit of one value: 16 MiB.
    public static let defaultMaxValueBytes = 16 * 1024 * 1024

    /// Creates limits. Defaults: 500 rows, 32 KiB of rows, 8 KiB per value shown, 16 MiB per
    /// value built, 10 seconds, 5 seconds of waiting for a lock.
    public init(
        maxRows: Int = 500, maxResultBytes: Int = defaultMaxResultBytes, maxCellBytes: Int? = nil,
        maxValueBytes: Int = defaultMaxValueBytes, timeout: Duration = .seconds(10), busyTimeout: Duration = .seconds(5)
    ) {
        self.maxRows = max(1, maxRows)
        self.maxResultBytes = max(256, maxResultBytes)
        self.maxCellBytes = max(ResultReader.minimumCellBytes, maxCellBytes ?? self.maxResultBytes / 4)
        self.maxValueBytes = max(1024, maxValueBytes)
        self.timeout = timeout
        self.busyTimeout = busyTimeout
    }
}
