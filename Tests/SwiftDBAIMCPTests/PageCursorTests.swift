import Foundation
import GRDB
import MCP
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport
@testable import SwiftDBAIMCP

@Suite("Page cursors")
struct PageCursorTests {
    @Test("a cursor round-trips, and is refused for another kind or request, or when malformed")
    func roundTrip() throws {
        let cursor = PageCursor(kind: "query", offset: 42, request: PageCursor.fingerprint(["SELECT 1", ""]), schemaVersion: 7, rows: 99)
        let decoded = try PageCursor.decode(cursor.encoded, kind: "query", request: cursor.request)
        #expect(decoded == cursor)
        #expect(throws: PageCursor.Refusal.otherKind) { try PageCursor.decode(cursor.encoded, kind: "tools", request: cursor.request) }
        #expect(throws: PageCursor.Refusal.otherRequest) { try PageCursor.decode(cursor.encoded, kind: "query", request: 1) }
        #expect(throws: PageCursor.Refusal.malformed) { try PageCursor.decode("%%%", kind: "query") }
        #expect(throws: PageCursor.Refusal.malformed) { try PageCursor.decode(String(repeating: "A", count: 600), kind: "query") }
        #expect(PageCursor.fingerprint(["a", "b"]) != PageCursor.fingerprint(["ab", ""]))
        #expect(PageCursor.fingerprint(["x"]) < 1 << 53)
    }
}
