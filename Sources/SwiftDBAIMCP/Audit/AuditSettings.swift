/// How `dbai-mcp` keeps its audit log: one JSON line per write attempt (and, when asked, per
/// read), written durably before a write's commit is reported.
public struct AuditSettings: Sendable, Hashable {
    /// The log file (`--audit-log`): created when missing, appended to, never truncated.
    public var path: String
    /// Reads are recorded too (`--audit-reads`): every tool call that is not a write attempt.
    public var recordsReads = false
    /// Bound values are replaced with their type and size (`--audit-redact-values`).
    public var redactsValues = false
    /// The size past which the log is rotated to `FILE.1`, `FILE.2`… (`--audit-log-max-mb`, in
    /// bytes here); nil never rotates.
    public var maxBytes: Int?

    /// Settings for a log at `path`.
    public init(path: String, recordsReads: Bool = false, redactsValues: Bool = false, maxBytes: Int? = nil) {
        self.path = path
        self.recordsReads = recordsReads
        self.redactsValues = redactsValues
        self.maxBytes = maxBytes
    }
}
