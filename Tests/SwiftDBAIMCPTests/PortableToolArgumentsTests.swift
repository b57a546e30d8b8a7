import Foundation
import MCP
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

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
