import Foundation
import SwiftDBAIChat
import Yams

extension DatasetteMetadata {
    /// Reads a metadata file: JSON when it parses as JSON (or ends in `.json`), YAML otherwise.
    ///
    /// - Throws: ``DBAIServerConfigurationError/metadata(file:entry:reason:)`` for a missing or
    ///   unreadable file, malformed JSON or YAML, or an entry of the wrong shape.
    public static func load(path: String) throws(DBAIServerConfigurationError) -> DatasetteMetadata {
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            let reason = FileManager.default.fileExists(atPath: path)
                ? "the file cannot be read (\((error as NSError).localizedDescription))" : "the file does not exist"
            throw .metadata(file: path, entry: nil, reason: reason)
        }
        return try parse(data, file: path)
    }

    /// Parses the text of a metadata file.
    ///
    /// - Throws: ``DBAIServerConfigurationError/metadata(file:entry:reason:)``.
    public static func parse(_ data: Data, file: String) throws(DBAIServerConfigurationError) -> DatasetteMetadata {
        guard let text = String(data: data, encoding: .utf8) else {
            throw .metadata(file: file, entry: nil, reason: "the file is not UTF-8 text")
        }
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        let root: Any?
        if file.lowercased().hasSuffix(".json") || trimmed.hasPrefix("{") {
            do {
                root = try JSONSerialization.jsonObject(with: data, options: [.fragmentsAllowed])
            } catch {
                let detail = (error as NSError).userInfo["NSDebugDescription"] as? String ?? "\(error)"
                throw .metadata(file: file, entry: nil, reason: "malformed JSON: \(detail)")
            }
        } else {
            do {
                root = try Yams.load(yaml: text)
            } catch {
                throw .metadata(file: file, entry: nil, reason: "malformed YAML: \(error)")
            }
        }
        var reader = Reader(file: file)
        return try reader.metadata(root)
    }

    /// Walks the parsed tree, naming the entry of any shape error.
    private struct Reader {
        let file: String

        func fail(_ entry: String?, _ reason: String) -> DBAIServerConfigurationError {
            .metadata(file: file, entry: entry, reason: reason)
        }

        mutating func metadata(_ root: Any?) throws(DBAIServerConfigurationError) -> DatasetteMetadata {
            guard let root else { return DatasetteMetadata(file: file) }
            guard let top = root as? [String: Any] else {
                throw fail(nil, "the top level must be a mapping (with a databases key)")
            }
            var result = DatasetteMetadata(file: file)
            guard let databases = top["databases"], !(databases is NSNull) else { return result }
            guard let entries = databases as? [String: Any] else {
                throw fail("databases", "must be a mapping of database names")
            }
            for (name, value) in entries {
                result.databases[name] = try database(value, entry: "databases.\(name)")
            }
            return result
        }

        private func database(_ value: Any, entry: String) throws(DBAIServerConfigurationError) -> Database {
            if value is NSNull { return Database() }
            guard let object = value as? [String: Any] else { throw fail(entry, "must be a mapping") }
            var database = Database(description: try text(object["description"], entry: entry + ".description"))
            if let tables = object["tables"], !(tables is NSNull) {
                guard let entries = tables as? [String: Any] else { throw fail(entry + ".tables", "must be a mapping of table names") }
                for (name, value) in entries {
                    database.tables[name] = try table(value, entry: "\(entry).tables.\(name)")
                }
            }
            if let examples = object["examples"], !(examples is NSNull) {
                guard let entries = examples as? [Any] else {
                    throw fail(entry + ".examples", "must be a list of {question, sql}")
                }
                for (index, value) in entries.enumerated() {
                    database.examples.append(try example(value, entry: "\(entry).examples[\(index)]"))
                }
            }
            if let queries = object["queries"], !(queries is NSNull) {
                guard let entries = queries as? [String: Any] else { throw fail(entry + ".queries", "must be a mapping of query names") }
                for name in entries.keys.sorted() {
                    database.queries.append(try query(name, entries[name], entry: "\(entry).queries.\(name)"))
                }
            }
            return database
        }

        private func table(_ value: Any, entry: String) throws(DBAIServerConfigurationError) -> Table {
            if value is NSNull { return Table() }
            guard let object = value as? [String: Any] else { throw fail(entry, "must be a mapping") }
            var table = Table(description: try text(object["description"], entry: entry + ".description"))
            if let hidden = object["hidden"], !(hidden is NSNull) {
                guard let flag = Self.bool(hidden) else { throw fail(entry + ".hidden", "must be true or false") }
                table.hidden = flag
            }
            if let columns = object["columns"], !(columns is NSNull) {
                guard let entries = columns as? [String: Any] else {
                    throw fail(entry + ".columns", "must be a mapping of column names to descriptions")
                }
                for (name, value) in entries {
                    let path = "\(entry).columns.\(name)"
                    guard let object = value as? [String: Any] else {
                        if let description = try text(value, entry: path) { table.columns[name] = description }
                        continue
                    }
                    if let unknown = object.keys.sorted().first(where: { !["description", "masked", "hidden"].contains($0) }) {
                        throw fail("\(path).\(unknown)", "is not a key of a column (description, masked, hidden)")
                    }
                    if let description = try text(object["description"], entry: path + ".description") { table.columns[name] = description }
                    for key in ["masked", "hidden"] {
                        guard let flag = object[key], !(flag is NSNull) else { continue }
                        guard let on = Self.bool(flag) else { throw fail("\(path).\(key)", "must be true or false") }
                        if on, key == "masked" { table.maskedColumns.insert(name) }
                        if on, key == "hidden" { table.hiddenColumns.insert(name) }
                    }
                    if table.maskedColumns.contains(name), table.hiddenColumns.contains(name) {
                        throw fail(path, "a column is masked or hidden, not both (hidden: absent for everyone; masked: NULL without dbai:unmask)")
                    }
                }
            }
            return table
        }

        private func example(_ value: Any, entry: String) throws(DBAIServerConfigurationError) -> ChatExample {
            guard let object = value as? [String: Any] else { throw fail(entry, "must be a mapping with question and sql") }
            if let unknown = object.keys.sorted().first(where: { !["question", "sql"].contains($0) }) {
                throw fail("\(entry).\(unknown)", "is not a key of an example (question, sql)")
            }
            guard let question = try text(object["question"], entry: entry + ".question"),
                  !question.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw fail(entry + ".question", "is required: the question, as a user would ask it")
            }
            guard let sql = try text(object["sql"], entry: entry + ".sql"),
                  !sql.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw fail(entry + ".sql", "is required: the SQL that answers the question")
            }
            return ChatExample(question: question, sql: sql)
        }

        private func query(_ name: String, _ value: Any?, entry: String) throws(DBAIServerConfigurationError) -> CannedQuery {
            if let sql = value as? String { return CannedQuery(name: name, sql: sql) }
            guard let object = value as? [String: Any] else {
                throw fail(entry, "must be a mapping with sql (or the SQL text itself)")
            }
            guard let sql = try text(object["sql"], entry: entry + ".sql"),
                  !sql.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty else {
                throw fail(entry + ".sql", "is required: the query's SQL")
            }
            var query = CannedQuery(
                name: name, sql: sql, title: try text(object["title"], entry: entry + ".title"),
                description: try text(object["description"], entry: entry + ".description"))
            if let write = object["write"], !(write is NSNull) {
                guard let flag = Self.bool(write) else { throw fail(entry + ".write", "must be true or false") }
                query.write = flag
            }
            return query
        }

        /// A text value; numbers are accepted as their text (YAML reads `description: 2024` as one).
        private func text(_ value: Any?, entry: String) throws(DBAIServerConfigurationError) -> String? {
            guard let value, !(value is NSNull) else { return nil }
            if let string = value as? String { return string }
            if Self.bool(value) == nil {
                if let number = value as? Int { return String(number) }
                if let number = value as? Double { return String(number) }
            }
            throw fail(entry, "must be text")
        }

        /// A boolean: YAML's true/false, or JSON's (which Foundation may hand over as an NSNumber).
        private static func bool(_ value: Any) -> Bool? {
            if let flag = value as? Bool, !(value is Int), !(value is Double) || type(of: value) == Bool.self { return flag }
            if let number = value as? NSNumber, String(describing: type(of: number)).contains("Bool") { return number.boolValue }
            return nil
        }
    }
}
