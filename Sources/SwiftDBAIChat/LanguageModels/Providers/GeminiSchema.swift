import SwiftDBAI

/// Converts a JSON Schema into the OpenAPI subset Gemini accepts in `responseSchema` and in
/// function `parameters`.
///
/// Gemini rejects members it does not know (`additionalProperties`, `$schema`, `const`…) with
/// HTTP 400, so only the members of its `Schema` object are kept; `"type": ["string", "null"]`
/// becomes `"type": "string", "nullable": true`, and `const` becomes a one-value `enum`.
enum GeminiSchema {
    private static let keptMembers: Set<String> = [
        "type", "format", "title", "description", "nullable", "enum", "maxItems", "minItems", "properties",
        "required", "minProperties", "maxProperties", "minLength", "maxLength", "pattern", "example", "anyOf",
        "propertyOrdering", "default", "items", "minimum", "maximum",
    ]

    /// The schema with only what Gemini understands.
    static func sanitized(_ schema: JSONValue) -> JSONValue {
        guard let members = schema.objectValue else { return schema }
        var result: [String: JSONValue] = [:]
        for (key, value) in members where keptMembers.contains(key) {
            switch key {
            case "properties":
                if let properties = value.objectValue {
                    result[key] = .object(properties.mapValues(sanitized))
                }
            case "items":
                result[key] = sanitized(value)
            case "anyOf":
                if let options = value.arrayValue {
                    result[key] = .array(options.map(sanitized))
                }
            case "type":
                if let types = value.arrayValue {
                    let named = types.compactMap(\.stringValue)
                    if named.contains("null") {
                        result["nullable"] = true
                    }
                    if let first = named.first(where: { $0 != "null" }) {
                        result["type"] = .string(first)
                    }
                } else {
                    result[key] = value
                }
            default:
                result[key] = value
            }
        }
        if result["enum"] == nil, let constant = members["const"] {
            result["enum"] = [constant]
        }
        return .object(result)
    }

    /// Whether a parameters schema declares no parameter (Gemini rejects an object without
    /// properties, so such a declaration is sent without `parameters`).
    static func declaresNoParameters(_ schema: JSONValue) -> Bool {
        schema["type"]?.stringValue == "object" && (schema["properties"]?.objectValue?.isEmpty ?? true)
    }
}
