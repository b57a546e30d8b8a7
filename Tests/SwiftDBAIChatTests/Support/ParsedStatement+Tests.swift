@testable import SwiftDBAI
@testable import SwiftDBAIChat

// Checks read a statement's text in tests; the engine parses it once for all of them.

extension LiteralCheck {
    static func findings(in sql: String, schema: DatabaseSchema, profiles: [ColumnProfile]) -> [Finding] {
        findings(in: ParsedStatement(sql, schema: schema), schema: schema, profiles: profiles)
    }
}

extension KeyComparisonCheck {
    static func findings(in sql: String, schema: DatabaseSchema) -> [Finding] {
        findings(in: ParsedStatement(sql, schema: schema), schema: schema)
    }
}
