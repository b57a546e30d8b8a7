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

extension SQLRewriteRule {
    /// The rule applied to a statement's text, as the pipeline applies it: the rewritten text,
    /// or nil.
    func applied(
        to sql: String, question: String = "", error: String? = nil, schema: DatabaseSchema = DatabaseSchema(tables: []),
        profiles: [ColumnProfile] = []
    ) -> String? {
        let context = RewriteContext(
            schema: schema, profiles: profiles, question: question, failure: error.map { SQLiteFailure(message: $0) })
        return rewrite(ParsedStatement(sql, schema: schema), in: context)
    }
}
