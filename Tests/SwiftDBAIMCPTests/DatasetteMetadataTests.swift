import Foundation
import Testing
@testable import SwiftDBAIMCP
import SwiftDBAIChat

@Suite("Datasette metadata")
struct DatasetteMetadataTests {
    static let json = """
        {"title": "x", "license": "CC0", "databases": {"chinook": {
          "description": "Music", "source": "somewhere",
          "tables": {
            "Album": {"description": "Releases", "columns": {"Title": "As printed"}, "sort": "Title"},
            "Employee": {"hidden": true},
            "Genre": {"hidden": false, "description": 2024}
          },
          "queries": {
            "b_query": "SELECT 1",
            "a_query": {"sql": "UPDATE Genre SET Name = :n", "write": true, "title": "Rename", "description": "Renames"}
          },
          "examples": [
            {"question": "How many albums?", "sql": "SELECT COUNT(*) FROM Album"},
            {"question": "Longest track?", "sql": "SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 1"}
          ]
        }}}
        """

    static let yaml = """
        title: x
        databases:
          chinook:
            description: Music
            tables:
              Album:
                description: Releases
                columns: {Title: As printed}
              Employee: {hidden: true}
              Genre: {hidden: false, description: 2024}
            queries:
              b_query: SELECT 1
              a_query:
                sql: UPDATE Genre SET Name = :n
                write: true
                title: Rename
                description: Renames
            examples:
              - question: How many albums?
                sql: SELECT COUNT(*) FROM Album
              - {question: Longest track?, sql: SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 1}
        """

    @Test("JSON and YAML read the same, unknown Datasette keys ignored", arguments: [("m.json", json), ("m.yaml", yaml)])
    func parses(file: String, text: String) throws {
        let metadata = try DatasetteMetadata.parse(Data(text.utf8), file: file)
        let chinook = try #require(metadata.databases["chinook"])
        #expect(chinook.description == "Music")
        #expect(chinook.tables["Album"] == .init(description: "Releases", columns: ["Title": "As printed"]))
        #expect(chinook.tables["Employee"]?.hidden == true)
        #expect(chinook.tables["Genre"] == .init(description: "2024", hidden: false))
        #expect(chinook.hiddenTables == ["Employee"])
        #expect(chinook.queries == [
            .init(name: "a_query", sql: "UPDATE Genre SET Name = :n", title: "Rename", description: "Renames", write: true),
            .init(name: "b_query", sql: "SELECT 1"),
        ])
        #expect(chinook.schemaDescriptions.tables.keys.sorted() == ["Album", "Genre"])
        #expect(chinook.examples == [
            ChatExample(question: "How many albums?", sql: "SELECT COUNT(*) FROM Album"),
            ChatExample(question: "Longest track?", sql: "SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 1"),
        ])
    }

    @Test("an empty file or one without databases describes nothing")
    func empty() throws {
        #expect(try DatasetteMetadata.parse(Data(), file: "m.yaml").databases.isEmpty)
        #expect(try DatasetteMetadata.parse(Data("title: x\n".utf8), file: "m.yaml").databases.isEmpty)
        #expect(try DatasetteMetadata.parse(Data("{}".utf8), file: "m.json").databases.isEmpty)
    }

    @Test("a shape error names the file and the entry", arguments: [
        ("{\"databases\": [1]}", "m.json", "databases"),
        ("{\"databases\": {\"d\": {\"tables\": {\"t\": {\"hidden\": 1}}}}}", "m.json", "databases.d.tables.t.hidden"),
        ("{\"databases\": {\"d\": {\"tables\": {\"t\": {\"hidden\": \"yes\"}}}}}", "m.json", "databases.d.tables.t.hidden"),
        ("databases:\n  d:\n    tables:\n      t:\n        description: [a, b]\n", "m.yaml", "databases.d.tables.t.description"),
        ("databases:\n  d:\n    queries:\n      q: {sql: ''}\n", "m.yaml", "databases.d.queries.q.sql"),
        ("databases:\n  d:\n    queries:\n      q: {write: true}\n", "m.yaml", "databases.d.queries.q.sql"),
        ("databases:\n  d:\n    queries:\n      q: [SELECT 1]\n", "m.yaml", "databases.d.queries.q"),
        ("databases:\n  d:\n    tables:\n      t:\n        columns: [a]\n", "m.yaml", "databases.d.tables.t.columns"),
        ("databases:\n  d:\n    examples: {q: SELECT 1}\n", "m.yaml", "databases.d.examples"),
        ("databases:\n  d:\n    examples:\n      - SELECT 1\n", "m.yaml", "databases.d.examples[0]"),
        ("databases:\n  d:\n    examples:\n      - {sql: SELECT 1}\n", "m.yaml", "databases.d.examples[0].question"),
        ("databases:\n  d:\n    examples:\n      - {question: q, sql: ' '}\n", "m.yaml", "databases.d.examples[0].sql"),
        ("databases:\n  d:\n    examples:\n      - {question: q, sql: SELECT 1, answer: 1}\n", "m.yaml", "databases.d.examples[0].answer"),
    ])
    func shapeErrors(text: String, file: String, entry: String) {
        #expect(throws: DBAIServerConfigurationError.self) { try DatasetteMetadata.parse(Data(text.utf8), file: file) }
        do throws(DBAIServerConfigurationError) {
            _ = try DatasetteMetadata.parse(Data(text.utf8), file: file)
        } catch {
            guard case .metadata(let named, let found, _) = error else {
                Issue.record("unexpected \(error)")
                return
            }
            #expect(named == file && found == entry)
        }
    }

    @Test("malformed JSON or YAML, a missing file, and a top level that is not a mapping are errors that say so")
    func malformed() {
        func reason(_ body: () throws(DBAIServerConfigurationError) -> DatasetteMetadata) -> String {
            do {
                _ = try body()
                return ""
            } catch {
                return error.description
            }
        }
        #expect(reason { () throws(DBAIServerConfigurationError) in try DatasetteMetadata.parse(Data("{\"a\": ".utf8), file: "m.json") }
            .contains("malformed JSON"))
        #expect(reason { () throws(DBAIServerConfigurationError) in try DatasetteMetadata.parse(Data("a: [b".utf8), file: "m.yaml") }
            .contains("malformed YAML"))
        #expect(reason { () throws(DBAIServerConfigurationError) in try DatasetteMetadata.parse(Data("- a\n".utf8), file: "m.yaml") }
            .contains("mapping"))
        #expect(reason { () throws(DBAIServerConfigurationError) in try DatasetteMetadata.load(path: "/nonexistent/m.yaml") }
            == "The metadata file /nonexistent/m.yaml: the file does not exist.")
    }
}
