import Foundation
import MCP
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

@Suite("Tool arguments")
struct ToolArgumentsTests {
    @Test("params: an array binds ? parameters, an object :name parameters, blobs as base64")
    func params() throws {
        let positional = try ToolArguments(["params": [1, 2.5, "x", nil, true, ["base64": "AP8="]]]).sqlArguments()
        #expect(positional == .positional([1, 2.5, "x", .null, 1, .blob(Data([0, 255]))]))
        let named = try ToolArguments(["params": ["id": 3]]).sqlArguments()
        #expect(named == .named(["id": 3]))
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["params": "x"]).sqlArguments() }
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["params": [[1, 2]]]).sqlArguments() }
    }

    @Test("where decodes operators and refuses unknown ones")
    func filter() throws {
        let filter = try ToolArguments(["where": ["Total": [">": 5], "Country": "Brazil"]]).filter()
        #expect(filter.conditions == [.init("Country", .equals("Brazil")), .init("Total", .greaterThan(5))])
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["where": ["a": ["drop": 1]]]).filter() }
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["where": "a = 1"]).filter() }
    }

    @Test("integers, booleans and unknown arguments are checked")
    func scalars() throws {
        #expect(try ToolArguments(["max_rows": 5]).integer("max_rows") == 5)
        #expect(try ToolArguments(["max_rows": 5.0]).integer("max_rows") == 5)
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["max_rows": 0]).integer("max_rows") }
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["max_rows": "5"]).integer("max_rows") }
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["all_rows": "yes"]).bool("all_rows") }
        #expect(throws: ToolCallError.self) { try ToolArguments(["sql": "x", "wher": 1]).requireOnly(["sql", "where"]) }
    }

    @Test("SQL values convert to JSON values; non-finite reals become strings")
    func values() {
        #expect(Value(SQLValue.integer(3)) == 3)
        #expect(Value(SQLValue.real(.infinity)) == "Infinity")
        #expect(Value(SQLValue.blob(Data([1, 2]))) == ["base64": "AQI=", "bytes": 2])
    }
}
