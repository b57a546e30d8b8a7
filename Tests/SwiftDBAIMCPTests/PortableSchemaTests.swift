import MCP
import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIMCP

/// The advertised input schemas follow the strictest function-calling dialects (OpenAI strict
/// mode, Gemini): checked here rule by rule on every node of every tool's schema.
@Suite("Portable input schemas")
struct PortableSchemaTests {
    /// The rules a node breaks, each with the path of the node.
    static func violations(_ schema: Value, path: String = "$") -> [String] {
        guard case .object(let node) = schema else { return ["\(path): not an object schema"] }
        var problems: [String] = []
        if node["additionalProperties"] != nil { problems.append("\(path): additionalProperties") }
        for keyword in ["oneOf", "allOf", "not", "patternProperties", "$ref", "default", "minLength", "maxLength"]
        where node[keyword] != nil {
            problems.append("\(path): \(keyword)")
        }
        let scalars: Set<String> = ["string", "integer", "number", "boolean"]
        switch node["type"] {
        case .string(let type)?:
            if type == "object" {
                guard case .object(let properties)? = node["properties"] else {
                    problems.append("\(path): object without properties")
                    break
                }
                let required = Set(node["required"]?.arrayValue?.compactMap(\.stringValue) ?? [])
                if required != Set(properties.keys) { problems.append("\(path): not every property is required") }
                for (name, property) in properties {
                    problems += violations(property, path: "\(path).\(name)")
                }
            }
            if type == "array" {
                guard let items = node["items"] else {
                    problems.append("\(path): array without items")
                    break
                }
                problems += violations(items, path: "\(path)[]")
            }
        case .array(let types)?:
            let names = types.compactMap(\.stringValue)
            if names.count != 2 || !names.contains("null") || !scalars.contains(names.first { $0 != "null" } ?? "") {
                problems.append("\(path): type \(names) is neither one type nor a nullable scalar")
            }
        case nil:
            guard case .array(let branches)? = node["anyOf"] else {
                problems.append("\(path): no type")
                break
            }
            for (index, branch) in branches.enumerated() {
                problems += violations(branch, path: "\(path)|\(index)")
            }
        default:
            problems.append("\(path): malformed type")
        }
        if node["type"] != nil, node["anyOf"] != nil { problems.append("\(path): type beside anyOf") }
        if case .string("null")? = node["type"], node.count > 1 { problems.append("\(path): null with other keywords") }
        return problems
    }

    @Test("every tool's input schema follows the portable rules")
    func portable() {
        let tools = ToolRegistry(allowlist: .unrestricted).listTools(.everything)
        #expect(tools.count == 8)
        for tool in tools {
            #expect(Self.violations(tool.inputSchema) == [], "\(tool.name)")
        }
    }

    @Test("the checker catches the shapes that broke strict clients")
    func checkerCatchesOldShapes() {
        let old: Value = [
            "type": "object",
            "properties": [
                "where": ["type": "object", "additionalProperties": true],
                "params": ["type": ["array", "object"]],
                "rows": ["type": "array", "items": ["type": "object"]],
                "table": ["type": "string"],
            ],
            "required": ["table"],
            "additionalProperties": false,
        ]
        let problems = Self.violations(old)
        #expect(problems.contains("$: additionalProperties"))
        #expect(problems.contains("$: not every property is required"))
        #expect(problems.contains("$.where: object without properties") || problems.contains("$.where: additionalProperties"))
        #expect(problems.contains { $0.hasPrefix("$.params: type") })
        #expect(problems.contains("$.rows[]: object without properties"))
    }

    @Test("an optional argument is nullable: required, and null is one of its types")
    func optionalArgumentsAreNullable() {
        let query = ToolRegistry(allowlist: .readOnly).listTools(.everything).first { $0.name == "query" }
        let properties = query?.inputSchema.objectValue?["properties"]?.objectValue
        #expect(properties?["max_rows"]?.objectValue?["type"] == ["integer", "null"])
        #expect(properties?["sql"]?.objectValue?["type"] == "string")
        let params = properties?["params"]?.objectValue?["anyOf"]?.arrayValue
        #expect(params?.last == ["type": "null"])
    }
}
