/// Records the writes of an executor before they are committed (an audit log): the executor
/// calls it inside each write's transaction, after the statements ran and just before `COMMIT`,
/// so that what it records durably is never behind the database.
///
/// ```swift
/// let audited = executor.withJournal(MyAuditLog())
/// try await audited.execute("INSERT INTO Note(text) VALUES (?)", arguments: ["hi"])
/// ```
///
/// The calls are made on the writing connection's queue, one write at a time: keep them short.
public protocol WriteJournal: Sendable {
    /// The write ran and is about to be committed. Throw to refuse it: it is rolled back, and
    /// ``SQLExecutor/execute(_:expecting:confirmed:matching:)`` throws
    /// ``SwiftDBAIError/journalFailed(_:)`` with the error's description.
    func writeWillCommit(_ write: JournaledWrite) throws

    /// The write was committed: it is in the database.
    func writeDidCommit(_ write: JournaledWrite)

    /// The write ran (in part or whole) and was rolled back: nothing of it is in the database.
    /// `prepared` is the record ``writeWillCommit(_:)`` accepted when the rollback came after it
    /// (the commit itself failed), else nil.
    func writeDidRollBack(_ statements: [BoundStatement], prepared: JournaledWrite?, error: SwiftDBAIError)
}

/// A write about to be committed, as a ``WriteJournal`` sees it.
public struct JournaledWrite: Sendable, Hashable {
    /// The statements and their values, in the order they ran.
    public var statements: [BoundStatement]
    /// The operation of the first statement.
    public var operation: SQLOperation
    /// Rows the statements inserted, updated or deleted themselves.
    public var rowsAffected: Int
    /// The rowid of the last row inserted, for inserts into rowid tables.
    public var lastInsertRowID: Int64?
    /// Rowids updated, deleted or inserted, per table (triggers and foreign-key actions
    /// included), sorted; at most ``JournaledWrite/maxRowIDs`` in all.
    public var rowIDs: [String: [Int64]]
    /// True when more rows changed than ``rowIDs`` lists.
    public var rowIDsTruncated: Bool
    /// A digest of the content the rows of ``rowIDs`` hold after the write (a deleted row counts
    /// as missing): ``SQLExecutor/rowsDigest(of:)`` gives the same value for the same content in
    /// any process, so a record can be checked against the database later.
    public var rowsDigest: String
    /// True when the executor's policy requires a confirmation for one of the statements.
    public var needsConfirmation: Bool
    /// True when the executor's ``SQLExecutionDelegate`` confirmed the write (a preview shown);
    /// false when the caller passed `confirmed: true` or nothing needed confirming.
    public var confirmedByDelegate: Bool
    /// The rows the write changed, with their values before and after (bounded: see
    /// ``RowChanges``).
    public var rowChanges = RowChanges()

    /// The most rowids a record lists.
    public static let maxRowIDs = 1_000
}
