import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("SQLExtractor")
struct SQLExtractorTests {
    @Test("the statement is found in fenced, labelled and plain answers", arguments: [
        ("SELECT 1", "SELECT 1"),
        ("select name from t;", "select name from t"),
        ("```sql\nSELECT a FROM t\n```", "SELECT a FROM t"),
        ("```\nSELECT a FROM t;\n```\nThis returns a.", "SELECT a FROM t"),
        ("Here you go:\n\nSELECT a\nFROM t\nWHERE b = 'x;y';\n\nThat's it.", "SELECT a\nFROM t\nWHERE b = 'x;y'"),
        (#"{"sql": "SELECT 2"}"#, "SELECT 2"),
        ("```json\n{\"sql\": \"SELECT 3\"}\n```", "SELECT 3"),
        ("<think>I should use SELECT * FROM wrong</think>WITH x AS (SELECT 1) SELECT * FROM x", "WITH x AS (SELECT 1) SELECT * FROM x"),
        ("<THINK>SELECT 9</THINK>\nSELECT 4", "SELECT 4"),
    ])
    func extracts(text: String, expected: String) {
        #expect(SQLExtractor.sql(inText: text) == expected)
    }

    @Test("finds nothing in prose or an unclosed think block", arguments: [
        "I cannot answer that.", "", "<think>SELECT 1", "   ",
    ])
    func nothing(text: String) {
        #expect(SQLExtractor.sql(inText: text) == nil)
    }

    @Test("a run_sql tool call wins over text")
    func toolCall() {
        let response = LanguageModelResponse(
            text: "SELECT 'text'", toolCalls: [LanguageModelToolCall(id: "1", name: "run_sql", arguments: #"{"sql":"SELECT 'tool'"}"#)])
        #expect(SQLExtractor.sql(in: response) == "SELECT 'tool'")
    }
}
