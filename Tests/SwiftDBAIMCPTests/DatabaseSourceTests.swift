import Testing
@testable import SwiftDBAIMCP

@Suite("Database sources and the database chooser")
struct DatabaseSourceTests {
    @Test("--db parses NAME=PATH, and a path keeps its file's name", arguments: [
        ("app.sqlite", nil, "app.sqlite", "app"),
        ("data/chinook.db", nil, "data/chinook.db", "chinook"),
        ("sales=data/s.sqlite", "sales", "data/s.sqlite", "sales"),
        ("dir/a=b.sqlite", nil, "dir/a=b.sqlite", "a=b"),
        ("=x.sqlite", nil, "=x.sqlite", "=x"),
    ] as [(String, String?, String, String)])
    func parsing(argument: String, name: String?, path: String, servedName: String) {
        let source = DatabaseSource(parsing: argument)
        #expect(source.explicitName == name && source.path == path && source.name == servedName)
    }

    @Test("plain names are letters first, then letters, digits, _ or -")
    func plainNames() {
        #expect(DatabaseSource.isPlainName("sales_2024-eu"))
        for bad in ["", "1sales", "sales.db", "sa les", "é", String(repeating: "a", count: 33)] {
            #expect(!DatabaseSource.isPlainName(bad), "\(bad)")
        }
    }

    @Test("the chooser picks the database whose tables a question names, and never guesses a tie")
    func chooser() {
        let music = DatabaseChooser.Candidate(name: "music", description: "A record shop", schema: .init(tables: [
            .init(name: "Track", kind: .table, columns: [.init(name: "TrackId", declaredType: "INTEGER"), .init(name: "Milliseconds", declaredType: "INTEGER")]),
            .init(name: "InvoiceLine", kind: .table, columns: []),
        ]))
        let trade = DatabaseChooser.Candidate(name: "trade", description: nil, schema: .init(tables: [
            .init(name: "Customers", kind: .table, columns: [.init(name: "CompanyName", declaredType: "TEXT")]),
            .init(name: "Invoices", kind: .view, columns: []),
        ]))
        let chooser = DatabaseChooser()
        #expect(chooser.choose("How many tracks are longer than 5 minutes?", among: [music, trade]) == "music")
        #expect(chooser.choose("Which customers have the longest company names?", among: [music, trade]) == "trade")
        #expect(chooser.choose("In the trade database, how many rows?", among: [music, trade]) == "trade")
        #expect(chooser.choose("How many invoices?", among: [music, trade]) == "trade")
        #expect(chooser.choose("How many rows are there?", among: [music, trade]) == nil)
        #expect(chooser.choose("", among: [music, trade]) == nil)
    }
}
