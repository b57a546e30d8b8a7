import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("QuestionSuggester: questions the data can answer")
struct QuestionSuggesterTests {
    @Test("table names read as nouns: singular and plural")
    func nouns() {
        #expect(QuestionSuggester.noun("InvoiceLine") == ("invoice line", "invoice lines"))
        #expect(QuestionSuggester.noun("order_boxes") == ("order box", "order boxes"))
        #expect(QuestionSuggester.noun("Category") == ("category", "categories"))
        #expect(QuestionSuggester.noun("bike_models") == ("bike model", "bike models"))
        #expect(QuestionSuggester.words("BillingCountry") == "billing country")
    }

    @Test("the examples come first, in their order; then the schema's kinds in turn; each question once; within the limit")
    func order() async throws {
        let database = try ScratchDatabase("""
            CREATE TABLE artist (id INTEGER PRIMARY KEY, name TEXT);
            CREATE TABLE album (id INTEGER PRIMARY KEY, artist_id INTEGER REFERENCES artist(id), title TEXT, released DATE, genre TEXT, price REAL);
            INSERT INTO artist VALUES (1, 'AC/DC'), (2, 'Accept');
            INSERT INTO album VALUES (1, 1, 'Highway to Hell', '1979-07-27', 'Rock', 9.9), (2, 2, 'Balls to the Wall', '1983-12-05', 'Metal', 8.9),
                                     (3, 1, 'Back in Black', '1980-07-25', 'Rock', 9.9), (4, 2, 'Restless and Wild', '1982-10-01', 'Metal', 7.9);
            """)
        let executor = try database.executor()
        let schema = try await executor.schema(includingRowCounts: true)
        let profiles = try await executor.columnProfiles(in: schema)
        let examples = [ChatExample(question: "Which albums came out in the 1980s?", sql: "SELECT title FROM album WHERE released LIKE '198%'"),
                        ChatExample(question: "which ALBUMS came out in the 1980s?", sql: "SELECT 1")]
        let suggestions = QuestionSuggester().suggestions(examples: examples, schema: schema, profiles: profiles)
        #expect(suggestions.map(\.question) == [
            "Which albums came out in the 1980s?",
            "Which artists have the most albums?",
            "How many albums are there per year of released?",
            "How many albums are there for each genre?",
            "What is the sum of price for each genre?",
        ])
        #expect(suggestions.first?.source == .example && suggestions.dropFirst().allSatisfy { $0.source == .schema })
        for suggestion in suggestions.dropFirst() {
            #expect(try await executor.query(suggestion.sql).rowCount > 0, "\(suggestion.sql)")
        }
        #expect(QuestionSuggester(limit: 2).suggestions(examples: examples, schema: schema, profiles: profiles).count == 2)
    }

    @Test("typed text matches a question's start first, then questions holding each typed word, in any case and number")
    func matching() {
        let suggestions = ["Which artists have the most albums?", "How many albums are there per year?", "Albums per genre"]
            .map { SuggestedQuestion(question: $0, sql: "SELECT 1", source: .schema) }
        #expect(QuestionSuggester.matching("ALBUM", in: suggestions).map(\.question)
            == ["Albums per genre", "Which artists have the most albums?", "How many albums are there per year?"])
        #expect(QuestionSuggester.matching("year album", in: suggestions).map(\.question) == ["How many albums are there per year?"])
        #expect(QuestionSuggester.matching("", in: suggestions).count == 3)
        #expect(QuestionSuggester.matching("zebra", in: suggestions).isEmpty)
    }
}
