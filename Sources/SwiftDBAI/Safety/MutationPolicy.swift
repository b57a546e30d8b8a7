/// Per-table write rules, applied on top of the ``OperationAllowlist``.
///
/// A write is allowed when the allowlist allows its operation **and** the policy allows that
/// operation on every table it changes — including tables changed by triggers and foreign-key
/// actions.
///
/// ```swift
/// // INSERT and UPDATE on `notes` only; DELETE nowhere.
/// let policy = MutationPolicy(tableRules: ["notes": [.insert, .update]])
/// ```
public struct MutationPolicy: Sendable, Hashable {
    /// Allowed write operations per table (ASCII case-insensitive names). Nil allows every
    /// operation of the allowlist on every table.
    public var tableRules: [String: Set<SQLOperation>]?
    /// Operations that need a confirmation before they run. `DELETE` by default.
    public var operationsRequiringConfirmation: Set<SQLOperation>

    /// Creates a policy.
    ///
    /// - Parameters:
    ///   - tableRules: allowed write operations per table, or nil for no per-table restriction.
    ///   - operationsRequiringConfirmation: destructive operations, `[.delete]` by default.
    public init(
        tableRules: [String: Set<SQLOperation>]? = nil,
        operationsRequiringConfirmation: Set<SQLOperation> = [.delete]
    ) {
        self.tableRules = tableRules.map { rules in
            Dictionary(rules.map { (SQLIdentifier.foldCase($0.key), $0.value) }, uniquingKeysWith: { $0.union($1) })
        }
        self.operationsRequiringConfirmation = operationsRequiringConfirmation
    }

    /// A policy that lets the allowlist's write operations touch only the given tables.
    public static func writableTables(_ tables: some Sequence<String>) -> MutationPolicy {
        MutationPolicy(tableRules: Dictionary(
            tables.map { ($0, Set([SQLOperation.insert, .update, .delete])) }, uniquingKeysWith: { $0.union($1) }))
    }

    /// No per-table restriction; `DELETE` needs confirmation.
    public static let `default` = MutationPolicy()

    /// True when the policy allows the write operation on the table.
    public func allows(_ operation: SQLOperation, on table: String) -> Bool {
        guard operation.isWrite, let tableRules else { return true }
        return tableRules[SQLIdentifier.foldCase(table)]?.contains(operation) ?? false
    }

    /// True when the operation needs a confirmation.
    public func requiresConfirmation(_ operation: SQLOperation) -> Bool {
        operationsRequiringConfirmation.contains(operation)
    }
}
