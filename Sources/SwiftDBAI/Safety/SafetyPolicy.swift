/// Everything that decides whether a classified statement may run: the operation allowlist,
/// the per-table mutation policy and custom validators.
///
/// ```swift
/// let policy = SafetyPolicy(
///     allowlist: .standard,
///     mutationPolicy: MutationPolicy(tableRules: ["notes": [.insert, .update]]),
///     validators: [TableAllowlistValidator(["notes", "users"])])
/// try policy.authorize(try classifier.classify(sql))
/// ```
public struct SafetyPolicy: Sendable {
    /// The operations allowed at all.
    public var allowlist: OperationAllowlist
    /// Per-table write rules and confirmation requirements.
    public var mutationPolicy: MutationPolicy
    /// Custom checks, run in order after the allowlist and mutation policy.
    public var validators: [any QueryValidator]
    /// Masked and hidden columns; none by default.
    public var columnProtection: ColumnProtection

    /// Creates a policy. The default is read-only with no table restriction.
    public init(
        allowlist: OperationAllowlist = .readOnly,
        mutationPolicy: MutationPolicy = .default,
        validators: [any QueryValidator] = [], columnProtection: ColumnProtection = ColumnProtection()
    ) {
        self.allowlist = allowlist
        self.mutationPolicy = mutationPolicy
        self.validators = validators
        self.columnProtection = columnProtection
    }

    /// Throws when the statement may not run under this policy.
    ///
    /// Every write the statement may perform — its own, its triggers' and its foreign-key
    /// actions' — must be allowed by the allowlist and by the mutation policy for its table.
    ///
    /// - Throws: ``SQLRejection``.
    public func authorize(_ statement: ClassifiedStatement) throws(SQLRejection) {
        if !allowlist.allows(statement.operation) {
            throw SQLRejection(
                .operationNotAllowed,
                "\(statement.operation.sqlKeyword) is not allowed: the allowed operations are \(allowlist.operations.sorted().map(\.sqlKeyword).joined(separator: ", ")).")
        }
        for (table, operations) in statement.tablesWritten.sorted(by: { $0.key < $1.key }) {
            for operation in operations.sorted() {
                if !allowlist.allows(operation) {
                    throw SQLRejection(
                        .operationNotAllowed,
                        "The statement would \(operation.sqlKeyword) rows of \(table) (through a trigger, a foreign-key action or a REPLACE conflict), and \(operation.sqlKeyword) is not allowed.")
                }
                if !mutationPolicy.allows(operation, on: table) {
                    throw SQLRejection(
                        .writeNotAllowed,
                        "\(operation.sqlKeyword) on \(table) is not allowed by the mutation policy\(statement.operation == operation && operations.count == 1 ? "" : " (the statement would cause it through a trigger, a foreign-key action or a REPLACE conflict)").")
                }
            }
        }
        for validator in validators {
            try validator.validate(statement)
        }
    }

    /// True when the statement needs a confirmation before it runs.
    public func requiresConfirmation(_ statement: ClassifiedStatement) -> Bool {
        statement.writeOperations.contains { mutationPolicy.requiresConfirmation($0) }
    }

    /// The smallest row cap among the validators, or nil.
    public var maximumRowCount: Int? {
        validators.compactMap(\.maximumRowCount).min()
    }
}
