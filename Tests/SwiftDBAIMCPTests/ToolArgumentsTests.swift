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

    @Test("where in the map shape reads every operator, null as IS NULL, and a base64 object as a blob")
    func filterMapShape() throws {
        let filter = try ToolArguments(["where": [
            "Country": "Brazil", "Total": [">": 5, "<=": 20], "State": ["is_null": false], "Id": ["IN": [1, 2]],
            "Fax": nil, "Photo": ["base64": "AP8="], "Name": ["between": ["A", "M"]],
        ]]).filter()
        #expect(filter.conditions == [
            .init("Country", .equals("Brazil")),
            .init("Fax", .equals(.null)),
            .init("Id", .isIn([1, 2])),
            .init("Name", .between("A", "M")),
            .init("Photo", .equals(.blob(Data([0, 255])))),
            .init("State", .isNull(false)),
            .init("Total", .lessThanOrEqual(20)),
            .init("Total", .greaterThan(5)),
        ])
    }

    @Test("where in the map shape refuses what it cannot read, saying what to change", arguments: [
        (Value.object(["a": ["drop": 1]]), "Unknown operator \"drop\""),
        (Value.object(["a": [:]]), "Empty operator object for column a"),
        (Value.object(["a": ["between": [1]]]), "between takes [low, high]"),
        (Value.object(["a": ["in": 1]]), "in and not_in with a list"),
        (Value.object(["a": ["is_null": "yes"]]), "is_null with true or false"),
        (Value.object(["a": [1, 2]]), "compare each column to a value"),
    ])
    func filterMapShapeErrors(where value: Value, message: String) throws {
        let error = try #require(throws: ToolCallError.self) { _ = try ToolArguments(["where": value]).filter() }
        #expect(error.message.hasPrefix("Invalid where: "))
        #expect(error.message.contains(message))
        #expect(error.code == .invalidArguments)
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
