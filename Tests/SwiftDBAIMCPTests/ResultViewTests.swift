import Foundation
import MCP
import Testing
@testable import SwiftDBAIMCP

@Suite("The MCP Apps result view: its document and its negotiation")
struct ResultViewTests {
    /// `result-view.html`, the source the binary's document is written from.
    static let source = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Sources/SwiftDBAIMCP/Apps/result-view.html")

    @Test("the embedded document is result-view.html (run Scripts/embed-view after editing it)")
    func embeddedIsTheSource() throws {
        let html = try String(contentsOf: Self.source, encoding: .utf8)
        #expect(ResultViewDocument.html == html.trimmingCharacters(in: .newlines))
    }

    @Test("self-contained and safe: under 100 KB, no eval, no markup from strings, no external URL")
    func selfContained() {
        let html = ResultViewDocument.html
        #expect(html.utf8.count < 100_000)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        for forbidden in ["eval(", "new Function", "innerHTML", "outerHTML", "insertAdjacentHTML", "document.write",
                          "setTimeout(\"", "src=\"http", "href=\"http", "@import", "url(", "fetch(", "XMLHttpRequest", "WebSocket"] {
            #expect(!html.contains(forbidden), "\(forbidden)")
        }
        let urls = html.ranges(of: /https?:\/\/[^\s"')]+/).map { String(html[$0]) }
        #expect(Set(urls) == ["http://www.w3.org/2000/svg"], "only the SVG namespace")
    }

    @Test("the extension is declared with the HTML profile, or not at all")
    func negotiation() {
        func params(_ mimeTypes: Value) -> Value {
            ["capabilities": ["extensions": ["io.modelcontextprotocol/ui": ["mimeTypes": mimeTypes]]]]
        }
        #expect(AppsExtension.isDeclared(inInitialize: params(["text/html;profile=mcp-app"])))
        #expect(AppsExtension.isDeclared(inInitialize: params(["text/plain", "text/html; profile=mcp-app"])))
        #expect(!AppsExtension.isDeclared(inInitialize: params(["text/html"])))
        #expect(!AppsExtension.isDeclared(inInitialize: params([])))
        #expect(!AppsExtension.isDeclared(inInitialize: params("text/html;profile=mcp-app")))
        #expect(!AppsExtension.isDeclared(inInitialize: ["capabilities": [:]]))
        #expect(!AppsExtension.isDeclared(inInitialize: nil))
    }

    @Test("the resource: ui://, the MCP Apps MIME type, no CSP domains declared")
    func resource() throws {
        let contents = ResultView.read()
        let content = try #require(contents.first)
        #expect(content.uri == "ui://dbai/result")
        #expect(content.mimeType == "text/html;profile=mcp-app")
        #expect(content._meta?.fields["ui"]?.objectValue?["csp"] == nil)
        #expect(ResultView.resource.uri == content.uri && ResultView.resource.mimeType == content.mimeType)
    }

    @Test("the view's params: positional as a list, named as name/value pairs in name order, none as nothing")
    func params() {
        #expect(ResultViewSource.params(.positional([.integer(1), .text("a"), .null])) == [1, "a", nil])
        #expect(ResultViewSource.params(.named(["b": .integer(2), "a": .real(1.5)]))
            == [["name": "a", "value": 1.5], ["name": "b", "value": 2]])
        #expect(ResultViewSource.params(.none) == nil)
        #expect(ResultViewSource.params(.named([:])) == nil)
    }
}
