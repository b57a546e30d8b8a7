/// A custom check that runs on every classified statement before it executes.
///
/// Validators see what SQLite's compiler says the statement does — tables read (views expanded),
/// tables written (triggers and foreign-key actions included) — never just its text.
///
/// ```swift
/// struct NoAuditWrites: QueryValidator {
///     func validate(_ statement: ClassifiedStatement) throws(SQLRejection) {
///         if statement.tablesWritten["audit"] != nil {
///             throw SQLRejection(.validatorRejected, "The audit table is append-only through the app.")
///         }
///     }
/// }
/// ```
public protocol QueryValidator: Sendable {
    /// Refuses the statement by throwing.
    ///
    /// - Throws: ``SQLRejection`` saying why and what to change.
    func validate(_ statement: ClassifiedStatement) throws(SQLRejection)

    /// The largest number of rows a read may return under this validator, or nil for no limit.
    var maximumRowCount: Int? { get }
}

extension QueryValidator {
    /// No row limit by default.
    public var maximumRowCount: Int? { nil }
}
