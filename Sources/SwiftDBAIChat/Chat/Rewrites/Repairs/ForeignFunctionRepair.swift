import SwiftDBAI

/// Repairs date and string functions of other SQL dialects that small models write for SQLite:
/// `YEAR(d)`, `MONTH(d)`, `DAY(d)`, `HOUR(d)` (MySQL, SQL Server), `DATEDIFF(a, b)`, `NOW()`,
/// `CURDATE()`, `GETDATE()`, `LEN(s)`, `ISNULL(a, b)`, `CONCAT(…)` and `STRING_AGG(x, sep)`.
///
/// Applied only to SQLite's "no such function" error; each call of a known function is replaced
/// by its SQLite spelling (`CAST(strftime('%Y', d) AS INTEGER)`, `julianday(a) - julianday(b)`,
/// …). Calls with an unexpected number of arguments are left alone. The repaired statement goes
/// through the classifier and policy like any other.
struct ForeignFunctionRepair: SQLRewriteRule {
    let name = "foreign_function"
    let kind = SQLRewriteKind.repair

    func rewrite(_ statement: ParsedStatement, in context: RewriteContext) -> String? {
        guard context.failure?.kind == .noSuchFunction else { return nil }
        return Self.rewritten(statement.sql, tokens: statement.codeTokens)
    }

    /// The statement with every call of a known foreign function rewritten, or nil when it has
    /// none. `tokens` are the statement's own (an argument's text is read on its own).
    private static func rewritten(_ sql: String, tokens: [SQLTokens.Token]? = nil) -> String? {
        let tokens = tokens ?? SQLTokens(sql).tokens
        var edits: [SQLTokens.Edit] = []
        var index = 0
        while index + 1 < tokens.count {
            guard tokens[index].kind == .word, tokens[index + 1].kind == .symbol, tokens[index + 1].text == "(",
                  index == 0 || tokens[index - 1].text != ".",
                  let close = SQLTokens.closingParenthesis(of: index + 1, in: tokens) else { index += 1; continue }
            let arguments = self.arguments(between: index + 1, and: close, in: tokens, sql: sql)
            if let text = sqlite(SQLIdentifier.foldCase(tokens[index].text), arguments: arguments) {
                edits.append(SQLTokens.Edit(range: tokens[index].range.lowerBound..<tokens[close].range.upperBound, text: text))
                index = close + 1
            } else {
                index += 1
            }
        }
        guard !edits.isEmpty else { return nil }
        let repaired = SQLTokens.applying(edits, to: sql)
        return repaired == sql ? nil : repaired
    }

    /// The SQLite spelling of a call, or nil for a function this repair does not know (or a call
    /// with an argument count it does not expect). Arguments are repaired too (`YEAR(NOW())`).
    private static func sqlite(_ function: String, arguments raw: [String]) -> String? {
        let arguments = raw.map { rewritten($0) ?? $0 }
        func part(_ format: String) -> String? {
            arguments.count == 1 ? "CAST(strftime('\(format)', \(arguments[0])) AS INTEGER)" : nil
        }
        switch function {
        case "year": return part("%Y")
        case "month": return part("%m")
        case "day", "dayofmonth": return part("%d")
        case "hour": return part("%H")
        case "minute": return part("%M")
        case "now", "getdate", "sysdate", "current_timestamp":
            return arguments.isEmpty ? "datetime('now')" : nil
        case "curdate", "current_date", "today":
            return arguments.isEmpty ? "date('now')" : nil
        case "datediff":
            if arguments.count == 2 { return "(julianday(\(arguments[0])) - julianday(\(arguments[1])))" }
            // SQL Server: DATEDIFF(day, start, end).
            if arguments.count == 3, ["day", "dd", "d"].contains(SQLIdentifier.foldCase(arguments[0])) {
                return "(julianday(\(arguments[2])) - julianday(\(arguments[1])))"
            }
            return nil
        case "len": return arguments.count == 1 ? "length(\(arguments[0]))" : nil
        case "isnull": return arguments.count == 2 ? "ifnull(\(arguments[0]), \(arguments[1]))" : nil
        case "concat":
            guard arguments.count >= 2 else { return nil }
            return "(" + arguments.map { "coalesce(\($0), '')" }.joined(separator: " || ") + ")"
        case "string_agg", "listagg":
            return arguments.count == 2 ? "group_concat(\(arguments[0]), \(arguments[1]))" : nil
        default: return nil
        }
    }

    /// The text of each argument of the call whose parentheses are at `open` and `close`,
    /// trimmed; empty for `f()`.
    private static func arguments(between open: Int, and close: Int, in tokens: [SQLTokens.Token], sql: String) -> [String] {
        var starts = [tokens[open].range.upperBound]
        var ends: [String.Index] = []
        var depth = 0
        for index in (open + 1)..<close where tokens[index].kind == .symbol {
            switch tokens[index].text {
            case "(": depth += 1
            case ")": depth -= 1
            case "," where depth == 0:
                ends.append(tokens[index].range.lowerBound)
                starts.append(tokens[index].range.upperBound)
            default: break
            }
        }
        ends.append(tokens[close].range.lowerBound)
        let arguments = zip(starts, ends).map { sql[$0..<$1].trimmingCharacters(in: .whitespacesAndNewlines) }
        return arguments == [""] ? [] : arguments
    }
}
