import Foundation

/// A JSON object as the authorization server's documents and a token's parts are read, each
/// member looked up by name with the type it must have (a number is never a boolean).
struct JSONObject: Sendable {
    private let fields: [String: JSONValue]

    /// The object of `data`; nil when it is not one JSON object.
    init?(_ data: Data) {
        guard case .object(let fields)? = try? JSONDecoder().decode(JSONValue.self, from: data) else { return nil }
        self.fields = fields
    }

    fileprivate init(fields: [String: JSONValue]) {
        self.fields = fields
    }

    /// True when the member exists (whatever its value).
    func has(_ name: String) -> Bool { fields[name] != nil }

    func string(_ name: String) -> String? {
        guard case .string(let text)? = fields[name] else { return nil }
        return text
    }

    func number(_ name: String) -> Double? {
        guard case .number(let number)? = fields[name] else { return nil }
        return number
    }

    func bool(_ name: String) -> Bool? {
        guard case .bool(let value)? = fields[name] else { return nil }
        return value
    }

    /// The member as a list of strings: a string alone is a list of one; nil when the member
    /// is absent or holds anything else.
    func strings(_ name: String) -> [String]? {
        switch fields[name] {
        case .string(let text)?: return [text]
        case .array(let values)?:
            let strings = values.compactMap { value -> String? in
                guard case .string(let text) = value else { return nil }
                return text
            }
            return strings.count == values.count ? strings : nil
        default: return nil
        }
    }

    /// The member's objects (an array of objects; other elements are skipped).
    func objects(_ name: String) -> [JSONObject]? {
        guard case .array(let values)? = fields[name] else { return nil }
        return values.compactMap { value in
            guard case .object(let fields) = value else { return nil }
            return JSONObject(fields: fields)
        }
    }
}

/// One JSON value.
private enum JSONValue: Decodable, Sendable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        if var array = try? decoder.unkeyedContainer() {
            var values: [JSONValue] = []
            while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
            self = .array(values)
            return
        }
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            var fields: [String: JSONValue] = [:]
            for key in object.allKeys { fields[key.stringValue] = try object.decode(JSONValue.self, forKey: key) }
            self = .object(fields)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let value = try? single.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? single.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    private struct AnyKey: CodingKey {
        let stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
