import Foundation

/// One database given to the server: `--db PATH` or `--db NAME=PATH`.
///
/// The name is what the `database` argument of the tools, the resources and Datasette metadata
/// call it. Without one it is the file name without its extension (`chinook` for
/// `data/chinook.sqlite`), as in Datasette.
public struct DatabaseSource: Sendable, Hashable {
    /// The name given, or nil to use the file's.
    public var explicitName: String?
    /// The SQLite file.
    public var path: String

    /// The longest name: a canned query's tool, `NAME_QUERY`, must stay within 64 characters.
    public static let maximumNameLength = 32

    /// A database by path, named after its file unless `name` is given.
    public init(name: String? = nil, path: String) {
        explicitName = name
        self.path = path
    }

    /// Parses `--db`: `NAME=PATH` when the whole text is not an existing file and the text before
    /// the first `=` is a plain name, or names no folder while the text after it is an existing
    /// file (the server then refuses the name); `PATH` otherwise.
    public init(parsing argument: String) {
        if let equals = argument.firstIndex(of: "="), !FileManager.default.fileExists(atPath: argument) {
            let name = String(argument[..<equals])
            let path = String(argument[argument.index(after: equals)...])
            if Self.isPlainName(name) || (!name.isEmpty && !name.contains("/") && FileManager.default.fileExists(atPath: path)) {
                self.init(name: name, path: path)
                return
            }
        }
        self.init(path: argument)
    }

    /// The name the database is known by.
    public var name: String {
        explicitName ?? URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    }

    /// A letter, then letters, digits, `_` or `-`; at most ``maximumNameLength`` characters.
    static func isPlainName(_ name: String) -> Bool {
        guard let first = name.unicodeScalars.first, first.isASCII, first.properties.isAlphabetic,
              name.count <= maximumNameLength else { return false }
        return name.unicodeScalars.allSatisfy { scalar in
            scalar.isASCII && (scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "_" || scalar == "-")
        }
    }
}
