import Foundation
import MCP
import SwiftDBAIPrimitives
import SwiftDBAI
import SwiftDBAIMCPKernel

/// The opaque cursor of a paged answer: where the next page starts, bound to the request it
/// continues.
///
/// A cursor is base64url JSON. It carries its kind (which list or tool made it), the offset of
/// the next page, a fingerprint of the request (the statement and its values, the tables or the
/// search words), and the schema version when the page depends on the schema. Decoding refuses
/// a cursor of another kind, of another request, or made before the schema changed, so that a
/// cursor can never silently continue something else.
struct PageCursor: Codable, Sendable, Hashable {
    /// What made the cursor: `tools`, `resources`, `catalog`, `query`…
    var kind: String
    /// Where the next page starts: an item or row offset.
    var offset: Int
    /// ``PageCursor/fingerprint(_:)`` of the request the cursor continues.
    var request: UInt64
    /// The schema version the pages were made under, when they depend on it.
    var schemaVersion: Int?
    /// A fingerprint of the rows already returned, when continuing a statement's result.
    var rows: UInt64?

    private enum CodingKeys: String, CodingKey {
        case kind = "k", offset = "o", request = "r", schemaVersion = "s", rows = "h"
    }

    /// The cursor as sent to the client.
    var encoded: String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return Base64URL.encoded((try? encoder.encode(self)) ?? Data())
    }

    /// Why a cursor was refused.
    enum Refusal: Error, Sendable, Hashable, CustomStringConvertible {
        case malformed
        case otherKind
        case otherRequest
        case schemaChanged

        var description: String {
            switch self {
            case .malformed: "The cursor is not one this server made: pass next_cursor (nextCursor) exactly as it was returned"
            case .otherKind: "The cursor belongs to another list or tool"
            case .otherRequest: "The cursor was made for another request: repeat the same arguments with it, or leave it out to start again"
            case .schemaChanged: "The schema changed since the cursor was made: leave it out to start again"
            }
        }
    }

    /// Decodes a cursor the client sent back, checking it continues `request` of `kind`.
    ///
    /// - Throws: ``Refusal``.
    static func decode(_ text: String, kind: String, request: UInt64 = 0) throws(Refusal) -> PageCursor {
        guard text.utf8.count <= 512, let data = Base64URL.decoded(text),
              let cursor = try? JSONDecoder().decode(PageCursor.self, from: data), cursor.offset >= 0
        else { throw .malformed }
        guard cursor.kind == kind else { throw .otherKind }
        guard cursor.request == request else { throw .otherRequest }
        return cursor
    }

    /// The offset a list request starts at: 0 without a cursor.
    ///
    /// - Throws: `ProtocolError.invalidParams` (-32602) for a cursor this list did not make.
    static func listOffset(_ cursor: String?, kind: String) throws -> Int {
        guard let cursor else { return 0 }
        do {
            return try decode(cursor, kind: kind).offset
        } catch {
            throw ProtocolError.invalidParams(detail: "Invalid cursor for \(kind)/list. \(error.description).")
        }
    }

    /// The `nextCursor` of a list page that ends at `end` of `count` items; nil on the last page.
    static func nextListCursor(after end: Int, of count: Int, kind: String) -> String? {
        end < count ? PageCursor(kind: kind, offset: end, request: 0).encoded : nil
    }

    /// A stable fingerprint of the parts of a request, in order (``RowFingerprint``'s, 53 bits:
    /// JSON readers may read numbers as doubles).
    static func fingerprint(_ parts: [String]) -> UInt64 {
        var fingerprint = RowFingerprint()
        fingerprint.add(parts.map(SQLValue.text))
        return fingerprint.value
    }
}

/// One page of a list.
struct ListPage<Item> {
    let items: [Item]
    let nextCursor: String?

    /// The page of `all` that a `cursor` asks for, `size` items at most.
    ///
    /// - Throws: `ProtocolError.invalidParams` for a cursor this list did not make, or one past its end.
    init(_ all: [Item], cursor: String?, size: Int, kind: String) throws {
        let start = try PageCursor.listOffset(cursor, kind: kind)
        guard start <= all.count, cursor == nil || start < all.count else {
            throw ProtocolError.invalidParams(detail: "Invalid cursor for \(kind)/list: the list has fewer items now; list again without a cursor.")
        }
        let end = min(all.count, start + size)
        items = Array(all[start..<end])
        nextCursor = PageCursor.nextListCursor(after: end, of: all.count, kind: kind)
    }
}
