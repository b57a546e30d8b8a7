import Foundation
import GRDB
import MCP
import Testing
@testable import SwiftDBAI
import SwiftDBAIChat
@testable import SwiftDBAIMCP

/// A copy of the bundled Chinook database in a temporary folder, and a server connected to an
/// in-process client.
final class ServerFixture: Sendable {
    let folder: URL
    let path: String

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbai-mcp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        path = folder.appendingPathComponent("chinook.sqlite").path
        try FileManager.default.copyItem(atPath: Self.examplePath, toPath: path)
    }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// `Examples/chinook.sqlite` of the repository.
    static var examplePath: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Examples/chinook.sqlite").path
    }

    /// A configuration that leaves SQLite's process-wide heap limit alone: the tests of every
    /// suite share one process, and 64 MiB for all their connections at once made unrelated
    /// tests fail with "out of memory". The e2e tests check the limit.
    func configuration(_ allowlist: OperationAllowlist = .readOnly) -> DBAIServerConfiguration {
        DBAIServerConfiguration(databasePath: path, allowlist: allowlist, sqliteMemoryLimit: nil)
    }

    /// Starts the server on an in-memory transport and returns a connected client.
    func connect(_ configuration: DBAIServerConfiguration) async throws -> Client {
        try await Self.client(of: configuration)
    }

    /// A server of any configuration on an in-memory transport, and a client connected to it.
    static func client(of configuration: DBAIServerConfiguration) async throws -> Client {
        let server = try DBAIServer(configuration: configuration)
        let (clientSide, serverSide) = await InMemoryTransport.createConnectedPair()
        Task { try await server.run(transport: serverSide) }
        let client = Client(name: "tests", version: "1")
        try await client.connect(transport: clientSide)
        return client
    }

    func count(_ table: String) throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM \(table)") ?? 0 }
    }
}

extension Client {
    func call(_ name: String, _ arguments: [String: Value]) async throws -> CallTool.Result {
        try await send(CallTool.request(.init(name: name, arguments: arguments))).value
    }
}
