import Foundation
import GRDB
import MCP
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport
@testable import SwiftDBAIMCP

/// A database of `count` tables of 12 columns, in a foreign-key chain, with a few rows each.
private func wideDatabase(tables count: Int, extra: String = "") throws -> ScratchDatabase {
    var script = ""
    for index in 0..<count {
        let parent = index == 0 ? "" : " REFERENCES w\(index - 1)(id)"
        let columns = (0..<10).map { "c\($0) TEXT" }.joined(separator: ", ")
        script += "CREATE TABLE w\(index)(id INTEGER PRIMARY KEY, parent_id INTEGER\(parent), \(columns));\n"
        script += "INSERT INTO w\(index)(id, parent_id, c0) VALUES (1, 1, 'a'), (2, 1, 'b');\n"
    }
    return try ScratchDatabase(script + extra)
}

private func connect(_ database: ScratchDatabase, budget: Int = 8_192, allowlist: OperationAllowlist = .readOnly) async throws -> Client {
    let configuration = DBAIServerConfiguration(
        databasePath: database.path, allowlist: allowlist, limits: ExecutionLimits(maxResultBytes: budget), sqliteMemoryLimit: nil)
    return try await ServerFixture.client(of: configuration)
}

/// The bytes of a result as compact JSON.
private func size(_ result: some Encodable) throws -> Int {
    try JSONEncoder().encode(result).count
}

@Suite("Schema answers within the budget: catalog pages, tables, search, lists")
struct SchemaPagingTests {
    @Test("the catalog pages through every table exactly once, each page within the budget")
    func catalogPages() async throws {
        let database = try wideDatabase(tables: 150)
        let client = try await connect(database)
        var names: [String] = []
        var arguments: [String: Value] = [:]
        var pages = 0
        while true {
            let result = try await client.call("describe_schema", arguments)
            #expect(result.isError != true)
            #expect(try size(result) <= 8_192)
            let structured = try #require(result.structuredContent?.objectValue)
            #expect(structured["mode"] == "catalog")
            names += structured["catalog"]?.arrayValue?.compactMap { $0.objectValue?["name"]?.stringValue } ?? []
            pages += 1
            guard let next = structured["next_cursor"]?.stringValue else { break }
            arguments = ["cursor": .string(next)]
        }
        #expect(pages > 2)
        #expect(names == (0..<150).map { "w\($0)" })
    }

    @Test("a schema that fits is answered whole, as before")
    func wholeWhenItFits() async throws {
        let database = try wideDatabase(tables: 3)
        let client = try await connect(database, budget: 32_768)
        let structured = try #require(try await client.call("describe_schema", [:]).structuredContent?.objectValue)
        #expect(structured["mode"] == "full")
        #expect(structured["tables"]?.arrayValue?.count == 3)
        #expect(structured["next_cursor"] == nil)
    }

    @Test("cursors are refused for another search, garbage, or after a schema change")
    func badCursors() async throws {
        let database = try wideDatabase(tables: 120)
        let client = try await connect(database)
        let first = try #require(try await client.call("describe_schema", [:]).structuredContent?.objectValue)
        let cursor = try #require(first["next_cursor"]?.stringValue)
        for arguments: [String: Value] in [
            ["search": "w1", "cursor": .string(cursor)],
            ["cursor": "garbage"],
            ["table": ["w1", "w2"], "cursor": .string(cursor)],
        ] {
            let refused = try await client.call("describe_schema", arguments)
            #expect(refused.isError == true, "\(arguments)")
        }
        let writer = try DatabaseQueue(path: database.path)
        try await writer.write { db in try db.execute(sql: "CREATE TABLE added(x)") }
        try writer.close()
        let stale = try await client.call("describe_schema", ["cursor": .string(cursor)])
        #expect(stale.isError == true)
        guard case .text(let text, _, _)? = stale.content.first else { Issue.record("no text"); return }
        #expect(text.contains("schema changed"))
    }

    @Test("search ranks name matches first and lists the columns that matched")
    func search() throws {
        let tables = [
            TableSchema(name: "invoice_line", kind: .table, columns: [ColumnSchema(name: "unit_price", declaredType: "REAL")]),
            TableSchema(name: "customer", kind: .table, columns: [
                ColumnSchema(name: "id", declaredType: "INTEGER"),
                ColumnSchema(name: "InvoiceEmail", declaredType: "TEXT"),
            ]),
            TableSchema(name: "misc", kind: .table, columns: [], description: "Invoices that bounced"),
            TableSchema(name: "artist", kind: .table, columns: []),
        ]
        let ranked = SchemaSearch("invoices").rank(tables)
        #expect(ranked.map(\.table.name) == ["invoice_line", "misc", "customer"])
        #expect(ranked.last?.matchedColumns == ["InvoiceEmail"])
        #expect(SchemaSearch("zzz").rank(tables).isEmpty)
        #expect(SchemaSearch("").rank(tables).isEmpty)
    }

    @Test("hidden tables stay out of the catalog, search, table lists and resources")
    func hiddenTables() async throws {
        let database = try wideDatabase(tables: 60, extra: "CREATE TABLE secret_ledger(id INTEGER PRIMARY KEY, secret TEXT);")
        let configuration = DBAIServerConfiguration(
            databasePath: database.path, visibleTables: (0..<60).map { "w\($0)" },
            limits: ExecutionLimits(maxResultBytes: 8_192), sqliteMemoryLimit: nil)
        let server = try DBAIServer(configuration: configuration)
        let (clientSide, serverSide) = await InMemoryTransport.createConnectedPair()
        Task { try await server.run(transport: serverSide) }
        let client = Client(name: "tests", version: "1")
        try await client.connect(transport: clientSide)
        var arguments: [String: Value] = [:]
        var names: [String] = []
        func catalogNames(_ result: CallTool.Result) -> [String] {
            let structured = result.structuredContent?.objectValue
            let entries = (structured?["catalog"]?.arrayValue ?? []) + (structured?["tables"]?.arrayValue ?? [])
            return entries.compactMap { $0.objectValue?["name"]?.stringValue }
        }
        while true {
            let result = try await client.call("describe_schema", arguments)
            names += catalogNames(result)
            guard let next = result.structuredContent?.objectValue?["next_cursor"]?.stringValue else { break }
            arguments = ["cursor": .string(next)]
        }
        #expect(names == (0..<60).map { "w\($0)" })
        #expect(catalogNames(try await client.call("describe_schema", ["search": "secret ledger"])).isEmpty)
        let hidden = try await client.call("describe_schema", ["table": ["w1", "secret_ledger"]])
        let missing = try await client.call("describe_schema", ["table": ["w1", "no_such_table"]])
        #expect(hidden.isError == true)
        #expect(String(describing: hidden.content).replacingOccurrences(of: "secret_ledger", with: "no_such_table")
            == String(describing: missing.content), "a hidden table is refused exactly as a missing one")
        var uris: [String] = []
        var cursor: String?
        repeat {
            let page = try await client.send(ListResources.request(cursor.map { .init(cursor: $0) } ?? .init())).value
            uris += page.resources.map(\.uri)
            cursor = page.nextCursor
        } while cursor != nil
        #expect(uris.count == 61)
        #expect(!uris.contains { $0.contains("secret") })
        let schema = try await client.send(ReadResource.request(.init(uri: "sqlite://schema"))).value
        #expect(!String(describing: schema).contains("secret"))
    }

    @Test("list cursors: pages of 100, and a cursor this server did not make is invalid params")
    func listCursors() async throws {
        let database = try wideDatabase(tables: 230)
        let client = try await connect(database)
        let first = try await client.send(ListResources.request(.init())).value
        #expect(first.resources.count == DBAIServer.listPageSize)
        let second = try await client.send(ListResources.request(.init(cursor: try #require(first.nextCursor)))).value
        let third = try await client.send(ListResources.request(.init(cursor: try #require(second.nextCursor)))).value
        #expect(third.nextCursor == nil)
        #expect(Set((first.resources + second.resources + third.resources).map(\.uri)).count == 231)
        await #expect(throws: MCPError.self) { _ = try await client.send(ListResources.request(.init(cursor: "nope"))).value }
        await #expect(throws: MCPError.self) { _ = try await client.send(ListTools.request(.init(cursor: "nope"))).value }
        await #expect(throws: MCPError.self) { _ = try await client.send(ListPrompts.request(.init(cursor: "nope"))).value }
        // A tools cursor is not a resources cursor.
        let foreign = PageCursor(kind: "tools", offset: 1, request: 0).encoded
        await #expect(throws: MCPError.self) { _ = try await client.send(ListResources.request(.init(cursor: foreign))).value }
    }

    @Test("prompts and the instructions fit the budget on a large schema")
    func promptsFit() async throws {
        let database = try wideDatabase(tables: 200)
        let client = try await connect(database)
        for (name, arguments) in [
            ("explore_database", [String: String]()), ("write_query", ["question": "which w12 rows have c0 = 'a'?"]),
            ("explain_table", ["table": "w7"]),
        ] {
            let prompt = try await client.send(GetPrompt.request(.init(name: name, arguments: arguments))).value
            #expect(try size(prompt) <= 8_192, "\(name)")
        }
    }
}
