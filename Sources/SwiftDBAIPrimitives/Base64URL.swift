import Foundation

/// Base64url without padding (RFC 4648 §5): the form of the opaque strings the server hands out
/// and takes back (cursors, the result view's source) and the parts of a JSON Web Token.
package enum Base64URL {
    package static func encoded(_ data: Data) -> String {
        let url = data.base64EncodedData().compactMap { byte -> UInt8? in
            switch byte {
            case UInt8(ascii: "+"): UInt8(ascii: "-")
            case UInt8(ascii: "/"): UInt8(ascii: "_")
            case UInt8(ascii: "="): nil
            default: byte
            }
        }
        return String(decoding: url, as: UTF8.self)
    }

    /// The bytes of `text`, or nil when it is not base64url.
    package static func decoded(_ text: String) -> Data? {
        var base64 = Array(text.utf8).map { byte -> UInt8 in
            switch byte {
            case UInt8(ascii: "-"): UInt8(ascii: "+")
            case UInt8(ascii: "_"): UInt8(ascii: "/")
            default: byte
            }
        }
        base64 += Array(repeating: UInt8(ascii: "="), count: (4 - base64.count % 4) % 4)
        return Data(base64Encoded: Data(base64))
    }
}
