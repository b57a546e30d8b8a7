extension SwiftDBAIError {
    /// A stable, machine-readable reason for an error, for programs that must not parse messages.
    ///
    /// Raw values are snake_case and never change once published: `dbai-mcp` reports them as a
    /// tool error's code. A refusal by the safety policy carries its ``SQLRejection/Code``
    /// (`invalid_sql`, `table_not_allowed`, …), so every code SwiftDBAI reports is one of the
    /// constants below or a rejection code.
    public struct Code: RawRepresentable, Sendable, Hashable, Codable, CustomStringConvertible {
        public let rawValue: String

        public init(rawValue: String) {
            self.rawValue = rawValue
        }

        /// The code of a refusal by the safety policy.
        public init(_ rejection: SQLRejection.Code) {
            self.rawValue = rejection.rawValue
        }

        public var description: String { rawValue }

        /// The file is missing, not SQLite, empty, unreadable, or needs recovery (a hot journal).
        public static let databaseUnavailable = Code(rawValue: "database_unavailable")
        /// SQLite reported an error while compiling or running a statement.
        public static let sqliteError = Code(rawValue: "sqlite_error")
        /// Another connection held a lock longer than the busy timeout.
        public static let databaseBusy = Code(rawValue: "database_busy")
        /// The statement ran longer than the timeout and was interrupted.
        public static let timeout = Code(rawValue: "timeout")
        /// The task was cancelled; nothing was changed.
        public static let cancelled = Code(rawValue: "cancelled")
        /// A destructive write needs a confirmation that was not given.
        public static let confirmationRequired = Code(rawValue: "confirmation_required")
        /// The confirmation of a destructive write was declined.
        public static let confirmationDeclined = Code(rawValue: "confirmation_declined")
        /// The rows a confirmed write would change are no longer those of its preview.
        public static let changedSincePreview = Code(rawValue: "changed_since_preview")
        /// A structured request named an unknown (or hidden) table.
        public static let unknownTable = Code(rawValue: "unknown_table")
        /// A structured request named a column the table does not have.
        public static let unknownColumn = Code(rawValue: "unknown_column")
        /// A request or its arguments are malformed.
        public static let invalidArguments = Code(rawValue: "invalid_arguments")
        /// A string or blob exceeded the value size limit.
        public static let valueTooLarge = Code(rawValue: "value_too_large")
        /// SQLite reached its memory limit.
        public static let outOfMemory = Code(rawValue: "out_of_memory")
        /// The write's audit record could not be written, so the write was not committed.
        public static let auditLogFailed = Code(rawValue: "audit_log_failed")
        /// A write was not undone: its rows changed since, or its record cannot restore them.
        public static let revertRefused = Code(rawValue: "revert_refused")
    }

    /// The stable reason for this error.
    public var code: Code {
        switch self {
        case .rejected(let rejection): Code(rejection.code)
        case .fileNotFound, .notADatabase, .emptyDatabase, .cannotOpen, .hotJournal, .extensionNotLoaded: .databaseUnavailable
        case .sqlite: .sqliteError
        case .databaseBusy: .databaseBusy
        case .timeout: .timeout
        case .cancelled: .cancelled
        case .confirmationRequired: .confirmationRequired
        case .confirmationDeclined: .confirmationDeclined
        case .changedSincePreview: .changedSincePreview
        case .unknownTable: .unknownTable
        case .unknownColumn: .unknownColumn
        case .invalidRequest: .invalidArguments
        case .valueTooLarge: .valueTooLarge
        case .outOfMemory: .outOfMemory
        case .journalFailed: .auditLogFailed
        case .revertRefused: .revertRefused
        }
    }
}
