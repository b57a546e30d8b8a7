extension SafetyPolicy {
    /// True when every ``TableAllowlistValidator`` of the policy lets callers see the table.
    public func isVisible(_ table: String) -> Bool {
        validators.allSatisfy { validator in
            (validator as? TableAllowlistValidator)?.allows(table) ?? true
        }
    }

    /// The schema restricted to the tables and views callers may see.
    public func visibleSchema(_ schema: DatabaseSchema) -> DatabaseSchema {
        let hidden = schema.tableNames.filter { !isVisible($0) }
        guard !hidden.isEmpty else { return schema }
        return schema.restricted(to: Set(schema.tableNames.filter(isVisible)))
    }
}
