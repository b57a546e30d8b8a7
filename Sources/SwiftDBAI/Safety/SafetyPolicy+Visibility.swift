extension SafetyPolicy {
    /// True when every ``TableAllowlistValidator`` of the policy lists the table or view.
    ///
    /// A listed view over a table that is not listed is still hidden: see
    /// ``SQLStatementClassifier/visibleTableNames``.
    public func isVisible(_ table: String) -> Bool {
        validators.allSatisfy { validator in
            (validator as? TableAllowlistValidator)?.allows(table) ?? true
        }
    }

    /// True when the policy may hide tables (it has a ``TableAllowlistValidator``).
    var mayHideTables: Bool {
        validators.contains { $0 is TableAllowlistValidator }
    }
}
