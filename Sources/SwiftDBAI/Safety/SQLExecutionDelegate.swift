/// Hooks around statement execution: confirmation of destructive operations and auditing.
///
/// ```swift
/// struct AskTheUser: SQLExecutionDelegate {
///     func confirmDestructiveOperation(_ request: DestructiveOperationRequest) async -> Bool {
///         await presentConfirmation(for: request.statement.sql)
///     }
/// }
/// ```
public protocol SQLExecutionDelegate: Sendable {
    /// Asked before a destructive statement (a `DELETE` by default) runs. Return true to run it.
    /// The default declines.
    func confirmDestructiveOperation(_ request: DestructiveOperationRequest) async -> Bool

    /// Whether the delegate can ask for a confirmation now. When false, a write that needs one
    /// is refused with ``SwiftDBAIError/confirmationRequired(_:tables:)``, as without a delegate
    /// (rather than declined). True by default.
    var canConfirm: Bool { get }

    /// Called after the policy allowed the statement, just before it runs.
    func willExecuteSQL(_ statement: ClassifiedStatement) async

    /// Called after the statement ran or failed. A failed write left the database unchanged.
    func didExecuteSQL(_ statement: ClassifiedStatement, outcome: SQLExecutionOutcome) async
}

extension SQLExecutionDelegate {
    public func confirmDestructiveOperation(_ request: DestructiveOperationRequest) async -> Bool { false }
    public var canConfirm: Bool { true }
    public func willExecuteSQL(_ statement: ClassifiedStatement) async {}
    public func didExecuteSQL(_ statement: ClassifiedStatement, outcome: SQLExecutionOutcome) async {}
}

/// A write waiting for confirmation: destructive by default (a `DELETE`, a `REPLACE`), or any
/// write a language model wrote.
public struct DestructiveOperationRequest: Sendable, Hashable {
    /// The classified statement (the first that needs confirmation, when there are several).
    public var statement: ClassifiedStatement
    /// The values bound to its parameters.
    public var arguments: SQLArguments
    /// Every statement of the write, run together in one transaction.
    public var statements: [BoundStatement] = []
    /// What the write would change now: show it to the user. Once confirmed, the write runs
    /// only if it still changes exactly these rows.
    public var preview: WritePreview?
    /// Set when the user confirmed an earlier preview of this write, but its rows changed before
    /// it could run (``SwiftDBAIError/changedSincePreview(previewedRows:rowsNow:)``, with the
    /// counts): this is a new preview to confirm. Show the error's description with it.
    public var changeSincePreviousConfirmation: SwiftDBAIError?

    /// True when this is a new preview after the rows of a confirmed one changed.
    public var changedSincePreviousConfirmation: Bool { changeSincePreviousConfirmation != nil }

    /// Creates a request.
    public init(statement: ClassifiedStatement, arguments: SQLArguments) {
        self.statement = statement
        self.arguments = arguments
        self.statements = [BoundStatement(sql: statement.sql, arguments: arguments)]
    }

    /// The tables whose rows would be deleted, or, for a write that deletes nothing, the tables
    /// it writes.
    public var tablesAffected: [String] {
        let deleting = statement.tablesWritten.filter { $0.value.contains(.delete) }.keys.sorted()
        return deleting.isEmpty ? statement.tablesWritten.keys.sorted() : deleting
    }
}

/// How a statement execution ended.
public enum SQLExecutionOutcome: Sendable, Hashable {
    /// A read returned rows.
    case rows(count: Int, truncated: Bool)
    /// A write changed rows and was committed.
    case changes(rowsAffected: Int)
    /// The statement failed; writes were rolled back.
    case failed(SwiftDBAIError)
}
