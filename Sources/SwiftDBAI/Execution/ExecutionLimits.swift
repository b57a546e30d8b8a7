/// Limits applied to every statement.
public struct ExecutionLimits: Sendable, Hashable {
    /// The most rows a read returns; further rows are not fetched and the result is `truncated`.
    public var maxRows: Int
    /// How long a statement may run before it is interrupted.
    public var timeout: Duration
    /// How long a statement waits for another connection's lock before failing with
    /// ``SwiftDBAIError/databaseBusy(message:)``.
    public var busyTimeout: Duration

    /// Creates limits. Defaults: 500 rows, 10 seconds, 5 seconds of waiting for a lock.
    public init(maxRows: Int = 500, timeout: Duration = .seconds(10), busyTimeout: Duration = .seconds(5)) {
        self.maxRows = max(1, maxRows)
        self.timeout = timeout
        self.busyTimeout = busyTimeout
    }
}
