/// Why the safety policy refused a statement. Nothing ran.
///
/// The ``code`` is stable and meant for programs; the ``message`` is meant for people and LLM
/// clients and says what to change.
public struct SQLRejection: Error, Sendable, Hashable, CustomStringConvertible {
    /// A stable, machine-readable reason.
    public enum Code: String, Sendable, Hashable, Codable {
        /// The text holds no statement.
        case emptyStatement = "empty_statement"
        /// The text holds a NUL character, after which SQLite would silently stop reading.
        case nulCharacter = "nul_character"
        /// The text holds more than one statement.
        case multipleStatements = "multiple_statements"
        /// SQLite could not compile the statement (syntax error, unknown table or column).
        case invalidSQL = "invalid_sql"
        /// The operation is not in the ``OperationAllowlist``.
        case operationNotAllowed = "operation_not_allowed"
        /// The statement is not the operation the caller asked for (an `INSERT` sent to `update`).
        case unexpectedOperation = "unexpected_operation"
        /// CREATE, DROP, ALTER and other schema changes.
        case schemaChange = "schema_change"
        /// BEGIN, COMMIT, ROLLBACK, SAVEPOINT, RELEASE.
        case transactionControl = "transaction_control"
        /// ATTACH, DETACH, or access to a database other than `main`.
        case attachedDatabase = "attached_database"
        /// A PRAGMA that changes a setting, or one outside the read-only introspection set.
        case pragmaNotAllowed = "pragma_not_allowed"
        /// A function with side effects (`load_extension`, …).
        case functionNotAllowed = "function_not_allowed"
        /// VACUUM, ANALYZE, REINDEX and other statements that are neither reads nor row writes.
        case unsupportedStatement = "unsupported_statement"
        /// A table (or internal object) that the policy hides or does not know.
        case tableNotAllowed = "table_not_allowed"
        /// A write the ``MutationPolicy`` does not allow on a table.
        case writeNotAllowed = "write_not_allowed"
        /// `update`/`delete` without a filter, and `all_rows` not given.
        case missingFilter = "missing_filter"
        /// A write that reads a masked column, or a statement that reaches a hidden column's
        /// definition (``ColumnProtection``).
        case columnNotAllowed = "column_not_allowed"
        /// A custom ``QueryValidator`` refused the statement.
        case validatorRejected = "validator_rejected"
    }

    /// The machine-readable reason.
    public var code: Code
    /// What happened and what to change.
    public var message: String

    /// Creates a rejection.
    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { message }
}
