import SwiftDBAI

/// Makes an anti-join find something: "How many completed events got no review?" written as
/// `FROM events e JOIN reviews r ON r.event_id = e.id WHERE r.id IS NULL` can never match,
/// because an inner join keeps only events that have a review, and those have a review id.
/// The join becomes a LEFT JOIN, which is what `IS NULL` on the joined table asks for.
///
/// Applied when a table brought in by a plain inner `JOIN` (`JOIN`, `INNER JOIN`; not a comma,
/// `NATURAL`, or a statement with a RIGHT or FULL join anywhere, which can null-extend it) of the
/// outer SELECT (not a subquery, a CTE or a compound) is tested with `alias.column IS NULL`, and
/// that column cannot be NULL after the join: a NOT NULL column, an `INTEGER PRIMARY KEY` (any
/// other primary key of a rowid table can hold NULL), or a column its ON condition compares with
/// `=`, `<`, `>` and the like as a term joined to the rest by AND only (a comparison with NULL is
/// never true). The test must be a term of the outermost WHERE that every row must meet (joined
/// to the rest by AND only). An equivalence: as written, no joined row can pass the WHERE (an
/// aggregate without GROUP BY answers one row of zero or NULL). A
/// test under OR, in the SELECT list or in a CASE can be true of other rows, and is left alone.
struct AntiJoinCorrection: SQLRewriteRule {
    let name = "anti_join"
    let kind = SQLRewriteKind.equivalence

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        let (sql, tokens, schema) = (statement.sql, statement.codeTokens, context.schema)
        // A CTE may shadow a table's name, and then the table's constraints say nothing.
        guard !statement.isCompound, tokens.first?.isKeyword("with") == false,
              !tokens.contains(where: { $0.isKeyword("right") || $0.isKeyword("full") }),
              let whereIndex = SQLTokens.topLevelIndex(of: "where", in: tokens)
        else { return nil }
        let required = Self.requiredTerms(in: tokens, whereIndex: whereIndex)
        var edits: [SQLTokens.Edit] = []
        for reference in statement.references where !reference.isLeftJoined && reference.start < whereIndex {
            guard Self.depth(at: reference.start, in: tokens) == 0,
                  let join = (reference.start..<reference.end).first(where: { tokens[$0].isKeyword("join") }),
                  (reference.start..<join).allSatisfy({ tokens[$0].isKeyword("inner") }),
                  let table = schema.table(named: reference.table)
            else { continue }
            let condition = Self.onTerms(of: reference, in: tokens)
            let tested = Self.nullTests(of: reference.alias, in: tokens, within: required)
            guard tested.contains(where: { index in
                let name = tokens[index + 2].text
                guard let column = table.column(named: name) else { return false }
                return column.isNotNull || Self.isRowidKey(column, of: table)
                    || condition.contains { Self.compares(reference.alias, column.name, in: $0, of: tokens) }
            }) else { continue }
            edits.append(SQLTokens.Edit(
                range: tokens[reference.start].range.lowerBound..<tokens[join].range.upperBound, text: "LEFT JOIN"))
        }
        return edits.isEmpty ? nil : SQLTokens.applying(edits, to: sql)
    }

    /// True for the table's `INTEGER PRIMARY KEY`, an alias of its rowid, which is never NULL
    /// (not `INTEGER PRIMARY KEY DESC`, which SQLite keeps in an index of its own, NULLs allowed).
    private static func isRowidKey(_ column: ColumnSchema, of table: TableSchema) -> Bool {
        column.primaryKeyPosition != nil && table.columns.filter({ $0.primaryKeyPosition != nil }).count == 1
            && SQLIdentifier.foldCase(column.declaredType) == "integer"
            && !table.indexes.contains { $0.origin == .primaryKey }
    }

    /// How many parentheses are open before the token at `index`.
    private static func depth(at index: Int, in tokens: [SQLTokens.Token]) -> Int {
        tokens[..<index].reduce(0) { depth, token in
            guard token.kind == .symbol else { return depth }
            return depth + (token.text == "(" ? 1 : token.text == ")" ? -1 : 0)
        }
    }

    /// The terms of the reference's ON condition joined by AND only; none when it has a
    /// top-level OR, or no ON.
    private static func onTerms(of reference: TableReference, in tokens: [SQLTokens.Token]) -> [Range<Int>] {
        guard reference.end < tokens.count, tokens[reference.end].isKeyword("on") else { return [] }
        return andTerms(in: tokens, from: reference.end + 1, to: reference.clauseEnd(in: tokens))
    }

    /// True when the term is `alias.column` compared (`=`, `==`, `<`, `>`, `<=`, `>=`, `<>`,
    /// `!=`) with an operand that holds no other operator at its level (`IS`, `OR`, `LIKE`, …):
    /// then the term is true only of rows where the column is not NULL.
    private static func compares(_ alias: String, _ column: String, in term: Range<Int>, of tokens: [SQLTokens.Token]) -> Bool {
        let comparison: Set<String> = ["=", "<", ">", "!"]
        var depth = 0
        var operators: [Int] = []
        for index in term {
            let token = tokens[index]
            if token.kind == .symbol, token.text == "(" { depth += 1 }
            if token.kind == .symbol, token.text == ")" { depth -= 1 }
            guard depth == 0 else { continue }
            if token.kind == .word, operatorWords.contains(SQLIdentifier.foldCase(token.text)) { return false }
            if token.kind == .symbol, comparison.contains(token.text) { operators.append(index) }
        }
        guard let first = operators.first, let last = operators.last, last - first < 2,
              operators.count == last - first + 1
        else { return false }
        func isColumn(_ range: Range<Int>) -> Bool {
            range.count == 3 && tokens[range.lowerBound].names(alias) && tokens[range.lowerBound + 1].text == "."
                && tokens[range.lowerBound + 2].names(column)
        }
        return isColumn(term.lowerBound..<first) || isColumn((last + 1)..<term.upperBound)
    }

    /// Words that make an operand more than a value compared.
    private static let operatorWords: Set<String> = [
        "is", "isnull", "notnull", "or", "and", "not", "in", "like", "glob", "match", "regexp", "between", "case",
    ]

    /// The indices of `alias` in each term `alias.column IS NULL` (not `IS NOT NULL`) among `terms`.
    /// The indices of `alias` in each term `alias.column IS NULL` (not `IS NOT NULL`) among `terms`.
    private static func nullTests(of alias: String, in tokens: [SQLTokens.Token], within terms: [Range<Int>]) -> [Int] {
        terms.compactMap { term in
            let index = term.lowerBound
            guard term.count == 5, tokens[index].names(alias), tokens[index + 1].text == ".", SQLTokens.isName(tokens[index + 2]),
                  tokens[index + 3].isKeyword("is"), tokens[index + 4].isKeyword("null")
            else { return nil }
            return index
        }
    }

    /// The terms of the outermost WHERE that every row must meet: the whole condition split at
    /// its top-level ANDs; none when it has a top-level OR (then no term alone must hold).
    private static func requiredTerms(in tokens: [SQLTokens.Token], whereIndex start: Int) -> [Range<Int>] {
        let end = SQLTokens.topLevelIndex(ofAny: ["group", "order", "limit", "having", "window", "union", "except", "intersect"],
                                          in: tokens, from: start + 1)
        return andTerms(in: tokens, from: start + 1, to: end)
    }

    /// The condition from `start` to `end` split at its top-level ANDs; none when it has a
    /// top-level OR. A `BETWEEN x AND y` keeps its AND.
    private static func andTerms(in tokens: [SQLTokens.Token], from start: Int, to end: Int) -> [Range<Int>] {
        guard start < end else { return [] }
        var terms: [Range<Int>] = []
        var depth = 0
        var termStart = start
        var betweens = 0
        var cases = 0
        for index in start..<end {
            let token = tokens[index]
            if token.kind == .symbol, token.text == "(" { depth += 1 }
            if token.kind == .symbol, token.text == ")" { depth -= 1 }
            guard depth == 0, token.kind == .word else { continue }
            // The ANDs and ORs of a CASE expression belong to its term.
            if token.isKeyword("case") { cases += 1 }
            if token.isKeyword("end"), cases > 0 { cases -= 1 }
            guard cases == 0 else { continue }
            if token.isKeyword("or") { return [] }
            if token.isKeyword("between") { betweens += 1 }
            if token.isKeyword("and") {
                if betweens > 0 { betweens -= 1; continue }
                terms.append(termStart..<index)
                termStart = index + 1
            }
        }
        terms.append(termStart..<end)
        return terms
    }
}
