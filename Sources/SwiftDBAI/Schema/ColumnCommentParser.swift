/// Reads the comments a `CREATE TABLE` statement carries beside its column definitions, which
/// `sqlite_schema` keeps verbatim, as the columns' descriptions:
///
/// ```sql
/// CREATE TABLE "Album" (
///     "AlbumId" INTEGER PRIMARY KEY,
///     "Title" TEXT NOT NULL, -- as printed on the cover
///     /* the artist credited first */
///     "ArtistId" INTEGER
/// )
/// ```
///
/// A comment inside a column's definition, or after its comma on the same line, describes that
/// column; a comment on lines of its own describes the column that follows it. Comments beside
/// table constraints (`PRIMARY KEY (…)`, `FOREIGN KEY …`, `CHECK …`) are ignored. Quoted names,
/// string literals and nested parentheses are skipped as SQLite's tokenizer would.
enum ColumnCommentParser {
    /// The descriptions found, keyed by column name as written (unquoted).
    static func descriptions(inCreateTable sql: String) -> [String: String] {
        guard mayHoldComment(sql) else { return [:] }
        var scanner = Scanner(Array(sql.unicodeScalars))
        return scanner.columnDescriptions()
    }

    /// Whether the text holds `--` or `/*` at all (most schemas have no comments: no parsing).
    private static func mayHoldComment(_ sql: String) -> Bool {
        var previous: UInt8 = 0
        for byte in sql.utf8 {
            if (previous == UInt8(ascii: "-") && byte == UInt8(ascii: "-"))
                || (previous == UInt8(ascii: "/") && byte == UInt8(ascii: "*")) {
                return true
            }
            previous = byte
        }
        return false
    }

    /// Words that start a table constraint rather than a column definition.
    private static let constraintKeywords: Set<String> = ["constraint", "primary", "unique", "check", "foreign"]

    private struct Definition {
        var name: String?
        var firstWord: String?
        var inner: [String] = []
        var leading: [String] = []

        var description: String? {
            let parts = inner.isEmpty ? leading : inner
            return parts.isEmpty ? nil : parts.joined(separator: " ")
        }
    }

    private struct Scanner {
        let text: [Unicode.Scalar]
        var position = 0

        init(_ text: [Unicode.Scalar]) {
            self.text = text
        }

        mutating func columnDescriptions() -> [String: String] {
            guard skipToColumnList() else { return [:] }
            var definitions: [Definition] = []
            var current = Definition()
            var pendingLeading: [String] = []
            /// A comma at depth 1 was just passed, with no newline since.
            var afterCommaOnSameLine = false
            var depth = 1
            while position < text.count, depth > 0 {
                let scalar = text[position]
                if let comment = readComment() {
                    if current.firstWord != nil {
                        current.inner.append(comment)
                    } else if afterCommaOnSameLine, !definitions.isEmpty {
                        definitions[definitions.count - 1].inner.append(comment)
                    } else {
                        pendingLeading.append(comment)
                    }
                    continue
                }
                switch scalar {
                case "\n":
                    afterCommaOnSameLine = false
                    position += 1
                case " ", "\t", "\r":
                    position += 1
                case "(":
                    depth += 1
                    position += 1
                    markToken(&current, &pendingLeading, word: nil)
                case ")":
                    depth -= 1
                    position += 1
                case "," where depth == 1:
                    definitions.append(current)
                    current = Definition()
                    afterCommaOnSameLine = true
                    position += 1
                default:
                    afterCommaOnSameLine = false
                    let word = readToken()
                    if depth == 1 { markToken(&current, &pendingLeading, word: word) }
                }
            }
            definitions.append(current)
            var result: [String: String] = [:]
            for definition in definitions {
                guard let name = definition.name, let description = definition.description else { continue }
                result[name] = description
            }
            return result
        }

        /// Records the first token of a definition: its name, unless it opens a table constraint.
        private func markToken(_ definition: inout Definition, _ pendingLeading: inout [String], word: (text: String, quoted: Bool)?) {
            guard definition.firstWord == nil else { return }
            definition.leading = pendingLeading
            pendingLeading = []
            guard let word else {
                definition.firstWord = "("
                return
            }
            definition.firstWord = word.text
            if word.quoted || !ColumnCommentParser.constraintKeywords.contains(word.text.lowercased()) {
                definition.name = word.text
            }
        }

        /// Moves past the `(` that opens the column list; false for `CREATE TABLE … AS SELECT`.
        private mutating func skipToColumnList() -> Bool {
            while position < text.count {
                if readComment() != nil { continue }
                let scalar = text[position]
                if scalar == "(" {
                    position += 1
                    return true
                }
                if scalar == " " || scalar == "\n" || scalar == "\t" || scalar == "\r" {
                    position += 1
                    continue
                }
                if let word = readToken(), !word.quoted, word.text.lowercased() == "as" { return false }
            }
            return false
        }

        /// Reads a `-- …` or `/* … */` comment at the position, trimmed; nil when there is none.
        private mutating func readComment() -> String? {
            guard position + 1 < text.count else { return nil }
            let first = text[position], second = text[position + 1]
            var body = String.UnicodeScalarView()
            if first == "-", second == "-" {
                position += 2
                while position < text.count, text[position] != "\n" {
                    body.append(text[position])
                    position += 1
                }
            } else if first == "/", second == "*" {
                position += 2
                while position < text.count {
                    if text[position] == "*", position + 1 < text.count, text[position + 1] == "/" {
                        position += 2
                        break
                    }
                    body.append(text[position])
                    position += 1
                }
            } else {
                return nil
            }
            let words = String(body).split(whereSeparator: { $0.isWhitespace })
            return words.isEmpty ? nil : words.joined(separator: " ")
        }

        /// Reads a quoted name or literal, or a bare word (one scalar for punctuation).
        private mutating func readToken() -> (text: String, quoted: Bool)? {
            let opening = text[position]
            let closing: Unicode.Scalar? = switch opening {
            case "\"", "'", "`": opening
            case "[": "]"
            default: nil
            }
            var value = String.UnicodeScalarView()
            if let closing {
                position += 1
                while position < text.count {
                    let scalar = text[position]
                    position += 1
                    if scalar == closing {
                        // A doubled quote stands for one (not inside brackets).
                        if closing != "]", position < text.count, text[position] == closing {
                            value.append(scalar)
                            position += 1
                            continue
                        }
                        break
                    }
                    value.append(scalar)
                }
                return (String(value), opening != "'")
            }
            while position < text.count {
                let scalar = text[position]
                let isWordScalar = scalar.isASCII
                    ? (("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar) || ("0"..."9").contains(scalar)
                        || scalar == "_" || scalar == "$")
                    : (scalar.properties.isAlphabetic || scalar.properties.numericType != nil)
                guard isWordScalar else { break }
                value.append(scalar)
                position += 1
            }
            if value.isEmpty {
                position += 1
                return (String(opening), false)
            }
            return (String(value), false)
        }
    }
}
