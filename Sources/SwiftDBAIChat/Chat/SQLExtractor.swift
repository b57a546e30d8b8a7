import SwiftDBAI

/// Finds the SQL statement in a model's answer: a `run_sql` tool call, a JSON object
/// `{"sql": "…"}`, a fenced block, or a bare statement in prose. `<think>…</think>` blocks are
/// ignored.
///
/// This only *finds* text; whether the statement may run is decided by SQLite's compiler later.
enum SQLExtractor {
    /// The tool the model may call with its SQL.
    static let toolName = "run_sql"

    /// The SQL in the response, or nil when there is none.
    static func sql(in response: LanguageModelResponse) -> String? {
        for call in response.toolCalls where call.name == toolName {
            if let sql = sqlMember(ofJSON: call.arguments) { return sql }
        }
        return sql(inText: response.text)
    }

    /// The SQL in a text answer, or nil.
    static func sql(inText text: String) -> String? {
        let visible = withoutThinking(text).trimmingCharacters(in: .whitespacesAndNewlines)
        guard !visible.isEmpty else { return nil }
        if let sql = sqlMember(ofJSON: visible) { return sql }
        for block in fencedBlocks(in: visible) {
            if let sql = sqlMember(ofJSON: block) { return sql }
            if let statement = statement(in: block) { return statement }
        }
        return statement(in: visible)
    }

    /// The text without `<think>…</think>` blocks (an unclosed one hides everything after it).
    static func withoutThinking(_ text: String) -> String {
        var remaining = Substring(text)
        var visible = ""
        while let open = remaining.range(of: "<think>", options: .caseInsensitive) {
            visible += remaining[..<open.lowerBound]
            guard let close = remaining[open.upperBound...].range(of: "</think>", options: .caseInsensitive) else {
                return visible
            }
            remaining = remaining[close.upperBound...]
        }
        return visible + remaining
    }

    /// The string member `sql` of a JSON object, when the text is one.
    static func sqlMember(ofJSON text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.hasPrefix("{"), let json = try? JSONValue(parsing: trimmed),
              let sql = (json["sql"] ?? json["query"])?.stringValue else { return nil }
        let cleaned = sql.trimmingCharacters(in: .whitespacesAndNewlines)
        return cleaned.isEmpty ? nil : cleaned
    }

    /// The contents of ``` fenced blocks, in order, `sql`-tagged ones first.
    static func fencedBlocks(in text: String) -> [String] {
        var blocks: [(tagged: Bool, body: String)] = []
        var remaining = Substring(text)
        while let open = remaining.range(of: "```") {
            let afterOpen = remaining[open.upperBound...]
            let lineEnd = afterOpen.firstIndex(of: "\n") ?? afterOpen.endIndex
            let tag = afterOpen[..<lineEnd].trimmingCharacters(in: .whitespaces).lowercased()
            let bodyStart = lineEnd < afterOpen.endIndex ? afterOpen.index(after: lineEnd) : lineEnd
            let rest = afterOpen[bodyStart...]
            let close = rest.range(of: "```")
            let body = close.map { rest[..<$0.lowerBound] } ?? rest
            blocks.append((tag == "sql" || tag == "sqlite", String(body)))
            guard let close else { break }
            remaining = rest[close.upperBound...]
        }
        return blocks.filter(\.tagged).map(\.body) + blocks.filter { !$0.tagged }.map(\.body)
    }

    private static let statementStarts = ["select", "with", "insert", "update", "delete", "replace", "values"]

    /// The first statement of the text: from a line that starts with a statement keyword to the
    /// first `;` outside quotes, or to the end of that paragraph.
    static func statement(in text: String) -> String? {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        guard let start = lines.firstIndex(where: { line in
            let word = line.trimmingCharacters(in: .whitespaces).prefix { $0.isLetter }.lowercased()
            return statementStarts.contains(word)
        }) else { return nil }
        var collected: [Substring] = []
        for line in lines[start...] {
            if line.trimmingCharacters(in: .whitespaces).isEmpty, !collected.isEmpty { break }
            collected.append(line)
        }
        let candidate = collected.joined(separator: "\n")
        let statement = cutAtFirstSemicolon(candidate).trimmingCharacters(in: .whitespacesAndNewlines)
        return statement.isEmpty ? nil : statement
    }

    /// The text up to its first `;` outside quotes and comments.
    static func cutAtFirstSemicolon(_ text: String) -> String {
        var quote: Character?
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            if let open = quote {
                if character == open { quote = nil }
            } else if character == "'" || character == "\"" || character == "`" {
                quote = character
            } else if character == ";" {
                return String(text[..<index])
            }
            index = text.index(after: index)
        }
        return text
    }
}
