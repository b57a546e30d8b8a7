import Foundation
import GRDBSQLite

/// A SQLite loadable extension (a shared library such as sqlite-vec's `vec0.so`), loaded on every
/// connection an executor opens and on the private connections where statements are classified,
/// so that its functions and virtual-table modules both classify and run.
///
/// Loading goes through the C API only, on a connection no statement is using: extension
/// loading is switched on for the call and off again at once. The SQL function
/// `load_extension()` stays refused by the classifier whatever was loaded.
///
/// ```swift
/// let vec = SQLiteExtension(path: "/opt/sqlite-vec/vec0.so")
/// let opened = try OpenedDatabase(path: "app.sqlite", readOnly: true, extensions: [vec])
/// let executor = try SQLExecutor(opened)
/// let result = try await executor.query("SELECT vec_version()")
/// ```
public struct SQLiteExtension: Sendable, Hashable, CustomStringConvertible {
    /// The shared library, as given to `sqlite3_load_extension` (SQLite also tries the name with
    /// the platform's suffix, `.so`, `.dylib` or `.dll`).
    public var path: String
    /// The initialization function; nil lets SQLite derive it from the file name
    /// (`sqlite3_vec_init` for `vec0.so`) or use `sqlite3_extension_init`.
    public var entryPoint: String?

    /// Creates an extension to load.
    public init(path: String, entryPoint: String? = nil) {
        self.path = path
        self.entryPoint = entryPoint
    }

    public var description: String {
        entryPoint.map { "\(path) (entry point \($0))" } ?? path
    }

    /// Loads the extension into a connection.
    ///
    /// - Throws: ``SwiftDBAIError/extensionNotLoaded(path:reason:)`` with SQLite's reason.
    package func load(into connection: OpaquePointer) throws(SwiftDBAIError) {
        if path.contains("/"), !FileManager.default.fileExists(atPath: path),
           !Self.suffixes.contains(where: { FileManager.default.fileExists(atPath: path + $0) }) {
            throw .extensionNotLoaded(path: path, reason: "no such file")
        }
        sqlite3_enable_load_extension(connection, 1)
        defer { sqlite3_enable_load_extension(connection, 0) }
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_load_extension(connection, path, entryPoint, &message)
        guard status != SQLITE_OK else { return }
        let reason = message.map { String(cString: $0) } ?? "SQLite error \(status)"
        sqlite3_free(message)
        throw .extensionNotLoaded(path: path, reason: reason)
    }

    /// The suffixes SQLite tries after the path as given.
    private static let suffixes = [".so", ".dylib", ".dll"]

    /// Loads every extension, in order, into a connection.
    ///
    /// - Throws: ``SwiftDBAIError/extensionNotLoaded(path:reason:)`` for the first that fails.
    package static func load(_ extensions: [SQLiteExtension], into connection: OpaquePointer?) throws(SwiftDBAIError) {
        guard let connection, !extensions.isEmpty else { return }
        for item in extensions { try item.load(into: connection) }
    }
}
