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

@Suite("Tool arguments: the advertised list shapes and 'not given'")
struct PortableToolArgumentsTests {
    @Test("null, blank strings and empty lists count as not given; unknown names are still refused")
    func notGiven() throws {
        let arguments = ToolArguments(["table": "", "column": "  ", "where": [], "params": nil, "set": [:], "max_rows": nil])
        #expect(arguments.values.isEmpty)
        #expect(try arguments.string("table") == nil)
        #expect(try arguments.integer("max_rows") == nil)
        #expect(try arguments.filter().isEmpty)
        #expect(try arguments.sqlArguments() == .none)
        #expect(throws: ToolCallError.self) { try ToolArguments(["wher": nil]).requireOnly(["where"]) }
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["sql": ""]).requiredString("sql") }
    }

    @Test("params as a list of {name, value} binds named parameters, with or without their : @ $ mark")
    func namedParams() throws {
        let named = try ToolArguments(["params": [["name": "id", "value": 3], ["name": ":n", "value": nil], ["name": "$b", "value": ["base64": "AP8="]]]])
            .sqlArguments()
        #expect(named == .named(["id": 3, "n": .null, "b": .blob(Data([0, 255]))]))
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["params": [["name": "id"]]]).sqlArguments() }
        // A mix of named and positional values, a repeated name or a nameless object is refused.
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["params": [["name": "id", "value": 1], 2]]).sqlArguments() }
        #expect(throws: ToolCallError.self) {
            _ = try ToolArguments(["params": [["name": "id", "value": 1], ["name": ":id", "value": 2]]]).sqlArguments()
        }
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["params": [["value": 1]]]).sqlArguments() }
    }

    @Test("where as a list of {column, op, value}, with every operator of the map shape")
    func filterList() throws {
        let filter = try ToolArguments(["where": [
            ["column": "Total", "op": ">", "value": 5],
            ["column": "Total", "op": "<=", "value": 20],
            ["column": "Country", "op": "in", "value": ["Brazil", "Chile"]],
            ["column": "Fax", "op": "=", "value": nil],
            ["column": "State", "op": "is_null", "value": false],
            ["column": "Id", "op": "between", "value": [1, 9]],
            ["column": "Name", "op": "LIKE", "value": "A%"],
            ["column": "City", "op": nil, "value": "Paris"],
        ]]).filter()
        #expect(filter.conditions == [
            .init("Total", .greaterThan(5)), .init("Total", .lessThanOrEqual(20)), .init("Country", .isIn(["Brazil", "Chile"])),
            .init("Fax", .equals(.null)), .init("State", .isNull(false)), .init("Id", .between(1, 9)),
            .init("Name", .like("A%")), .init("City", .equals("Paris")),
        ])
        for bad: Value in [
            [["column": "a", "op": "drop", "value": 1]], [["column": "a", "op": "in", "value": 1]],
            [["column": "a", "op": "between", "value": [1]]], [["column": "a", "op": "="]], [["op": "=", "value": 1]],
            [["column": "a", "op": "=", "value": 1, "extra": 2]], [["column": "a", "op": "=", "value": [1]]], ["a = 1"],
            [["column": "a", "op": "base64", "value": "AP8="]],
        ] {
            #expect(throws: ToolCallError.self, "\(bad)") { _ = try ToolArguments(["where": bad]).filter() }
        }
    }

    @Test("set as a list of {column, value} or an object; a column set twice is refused")
    func assignments() throws {
        #expect(try ToolArguments(["set": [["column": "Name", "value": "X"], ["column": "Fax", "value": nil]]]).assignments()
            == ["Name": "X", "Fax": .null])
        #expect(try ToolArguments(["set": ["Name": "X"]]).assignments() == ["Name": "X"])
        #expect(throws: ToolCallError.self) {
            _ = try ToolArguments(["set": [["column": "Name", "value": "X"], ["column": "Name", "value": "Y"]]]).assignments()
        }
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["set": nil]).assignments() }
        #expect(throws: ToolCallError.self) { _ = try ToolArguments(["set": [["Name": "X"]]]).assignments() }
    }

    @Test("rows as {columns, values} or a list of objects; every row has one value per column")
    func rows() throws {
        let tabular = try ToolArguments(["rows": ["columns": ["Name", "Price"], "values": [["Tea", 2.5], ["Cake", nil]]]]).insertedRows()
        #expect(tabular == [["Name": "Tea", "Price": 2.5], ["Name": "Cake", "Price": .null]])
        #expect(try ToolArguments(["rows": [["Name": "Tea"]]]).insertedRows() == [["Name": "Tea"]])
        #expect(try ToolArguments(["rows": ["columns": [], "values": [[]]]]).insertedRows() == [[:]])
        for bad: Value in [
            ["columns": ["Name"], "values": [["Tea", 1]]], ["columns": ["Name", "name"], "values": [["a", "b"]]],
            ["columns": ["Name"], "values": []], ["columns": ["Name"], "values": ["Tea"]], ["columns": [1], "values": [[1]]],
            ["columns": ["Name"], "values": [["Tea"]], "table": "x"], "Tea",
        ] {
            #expect(throws: ToolCallError.self, "\(bad)") { _ = try ToolArguments(["rows": bad]).insertedRows() }
        }
    }
}
