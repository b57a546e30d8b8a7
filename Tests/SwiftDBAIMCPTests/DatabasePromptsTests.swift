import Foundation
import MCP
import SwiftDBAIMCPKernel
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
@testable import SwiftDBAIMCP

@Suite("Prompts and completions")
struct DatabasePromptsTests {
    static func text(_ messages: [Prompt.Message]) -> String {
        messages.compactMap { message -> String? in
            if case .text(let text) = message.content { return text }
            return nil
        }.joined(separator: "\n")
    }

    @Test("five prompts are listed; each inlines the schema it needs and names the tools as listed")
    func prompts() async throws {
        let fixture = try ServerFixture()
        var configuration = fixture.configuration()
        configuration.toolNaming = try ToolNaming(prefix: "music")
        let client = try await fixture.connect(configuration)
        let listed = try await client.listPrompts().prompts.map(\.name)
        #expect(listed == ["explore_database", "write_query", "explain_table", "suggest_questions", "ask"])

        let explore = Self.text(try await client.getPrompt(name: "explore_database").messages)
        #expect(explore.contains("CREATE TABLE \"Invoice\""))
        #expect(explore.contains("music_query"))
        #expect(explore.contains("SELECT strftime('%Y', \"InvoiceDate\")"))

        let query = Self.text(try await client.getPrompt(name: "write_query", arguments: ["question": "Which artist has the most albums?"]).messages)
        #expect(query.contains("Which artist has the most albums?"))
        #expect(query.contains("CREATE TABLE \"Album\"") && query.contains("CREATE TABLE \"Artist\""))
        #expect(query.contains("-- sample:"))

        let table = Self.text(try await client.getPrompt(name: "explain_table", arguments: ["table": "album"]).messages)
        #expect(table.contains("Explain the table Album"))
        #expect(table.contains("Album(ArtistId) references Artist(ArtistId)"))
        #expect(table.contains("Track(AlbumId) references Album"))
        #expect(table.contains("Rows: 347."))

        let ask = Self.text(try await client.getPrompt(name: "ask", arguments: ["question": "Which genre sells best?"]).messages)
        #expect(ask.contains("Which genre sells best?") && ask.contains("Call the music_ask tool") && ask.contains("music_query"))
        let suggested = Self.text(try await client.getPrompt(name: "suggest_questions").messages)
        #expect(suggested.contains("1. ") && suggested.contains("(from its schema)") && suggested.contains("music_ask"))
        #expect(suggested.contains("Which artists have the most albums?"))
    }

    @Test("suggested questions: the users' examples first, then the schema's; their SQL runs; ask and write_query complete from them")
    func suggestions() async throws {
        let fixture = try ServerFixture()
        var configuration = fixture.configuration()
        let yaml = """
            databases:
              chinook:
                examples:
                  - question: Which customers spent the most in 2024?
                    sql: SELECT CustomerId, SUM(Total) FROM Invoice WHERE InvoiceDate LIKE '2024%' GROUP BY CustomerId ORDER BY 2 DESC LIMIT 5
                queries:
                  longest_tracks:
                    sql: SELECT Name FROM Track ORDER BY Milliseconds DESC LIMIT 10
                    title: The ten longest tracks
            """
        configuration.metadata = try DatasetteMetadata.parse(Data(yaml.utf8), file: "m.yaml")
        let client = try await fixture.connect(configuration)
        let text = Self.text(try await client.getPrompt(name: "suggest_questions").messages)
        #expect(text.contains("(the first 2 from its users' own examples, the rest from its schema)"))
        #expect(text.contains("1. Which customers spent the most in 2024?\n2. The ten longest tracks\n3. "))
        #expect(text.contains("How many invoices are there per year of invoice date?"))
        #expect(text.contains("Which genres have the most tracks?"))

        let typed = try await client.complete(promptName: "ask", argumentName: "question", argumentValue: "which cust")
        #expect(typed.values.first == "Which customers spent the most in 2024?")
        let words = try await client.complete(promptName: "write_query", argumentName: "question", argumentValue: "tracks genre")
        #expect(words.values.contains("Which genres have the most tracks?"))
        #expect(words.values.allSatisfy { $0.lowercased().contains("track") && $0.lowercased().contains("genre") })
        let nothing = try await client.complete(promptName: "ask", argumentName: "question", argumentValue: "zebras")
        #expect(nothing.values.isEmpty && nothing.total == 0)
    }

    @Test("every schema question's SQL runs and returns rows on both sample databases", arguments: ["chinook.sqlite", "northwind.sqlite"])
    func suggestedSQLRuns(file: String) async throws {
        let path = URL(fileURLWithPath: ServerFixture.examplePath).deletingLastPathComponent().appendingPathComponent(file).path
        let executor = try SQLExecutor(path: path, policy: SafetyPolicy(allowlist: .readOnly))
        let schema = try await executor.schema(includingRowCounts: true)
        let suggestions = QuestionSuggester(limit: 40).suggestions(
            examples: [], schema: schema, profiles: try await executor.columnProfiles(in: schema))
        #expect(suggestions.count >= 10)
        #expect(Set(suggestions.map(\.question)).count == suggestions.count)
        for suggestion in suggestions {
            #expect(suggestion.source == .schema)
            let result = try await executor.query(suggestion.sql)
            #expect(result.rowCount > 0, "\(suggestion.sql)")
        }
    }

    @Test("an unknown prompt, a missing argument or a hidden table is an invalid-params error")
    func errors() async throws {
        let fixture = try ServerFixture()
        var configuration = fixture.configuration()
        configuration.visibleTables = ["Album", "Artist"]
        let client = try await fixture.connect(configuration)
        for (name, arguments) in [("nope", [:]), ("write_query", [:]), ("explain_table", ["table": " "]), ("explain_table", ["table": "Customer"])] as [(String, [String: String])] {
            await #expect(throws: MCPError.self, "\(name) \(arguments)") {
                _ = try await client.getPrompt(name: name, arguments: arguments)
            }
        }
        // The hidden tables appear nowhere.
        let explore = Self.text(try await client.getPrompt(name: "explore_database").messages)
        #expect(!explore.contains("Customer") && !explore.contains("Invoice"))
        let completion = try await client.complete(promptName: "explain_table", argumentName: "table", argumentValue: "")
        #expect(completion.values == ["Album", "Artist"])
    }

    @Test("table names complete for explain_table and the table resource template; other arguments get nothing")
    func completions() async throws {
        let fixture = try ServerFixture()
        let client = try await fixture.connect(fixture.configuration())
        let prompt = try await client.complete(promptName: "explain_table", argumentName: "table", argumentValue: "in")
        #expect(prompt.values == ["Invoice", "InvoiceLine"])
        #expect(prompt.total == 2 && prompt.hasMore == false)
        let containing = try await client.complete(promptName: "explain_table", argumentName: "table", argumentValue: "LIST")
        #expect(containing.values == ["Playlist", "PlaylistTrack"])
        let resource = try await client.complete(resourceURI: "sqlite://table/{name}", argumentName: "name", argumentValue: "Ar")
        #expect(resource.values == ["Artist"])
        let other = try await client.complete(promptName: "explore_database", argumentName: "question", argumentValue: "wh")
        #expect(other.values.isEmpty)
        await #expect(throws: MCPError.self) {
            _ = try await client.complete(promptName: "nope", argumentName: "table", argumentValue: "")
        }
        await #expect(throws: MCPError.self) {
            _ = try await client.complete(resourceURI: "sqlite://other/{x}", argumentName: "x", argumentValue: "")
        }
    }

    @Test("the first questions' SQL runs on both sample databases", arguments: ["chinook.sqlite", "northwind.sqlite"])
    func firstQuestionsRun(file: String) async throws {
        let path = URL(fileURLWithPath: ServerFixture.examplePath).deletingLastPathComponent().appendingPathComponent(file).path
        let executor = try SQLExecutor(path: path, policy: SafetyPolicy(allowlist: .readOnly))
        let suggestions = QuestionSuggester(limit: 5).suggestions(examples: [], schema: try await executor.schema(includingRowCounts: true))
        #expect(suggestions.count == 5)
        for suggestion in suggestions {
            let result = try await executor.query(suggestion.sql)
            #expect(result.rowCount > 0, "\(suggestion.sql)")
        }
    }
}
