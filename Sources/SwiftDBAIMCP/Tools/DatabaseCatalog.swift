import SwiftDBAI

/// Which database a tool call works on when the server serves several.
enum DatabaseScope: Sendable, Hashable {
    /// The `database` argument is required.
    case required
    /// The `database` argument may be left out; the tool then works across the databases.
    case optional
    /// Always this database (a canned query); the tool takes no `database` argument.
    case fixed(String)
}

/// The databases of the server, and how to make the context of a call on one of them.
struct DatabaseCatalog: Sendable {
    /// The databases, in the order given.
    let databases: [ServedDatabase]
    /// The conversations of `ask` and its model; nil without a language model.
    let chat: ChatContext?
    /// The context of a call on one database.
    let context: @Sendable (ServedDatabase) -> ToolCallContext

    /// The database of that name.
    func database(named name: String) -> ServedDatabase? {
        databases.first { $0.name == name }
    }

    /// The names, in order.
    var names: [String] { databases.map(\.name) }

    /// The message of a call that needs a `database` and has none.
    var missingDatabaseMessage: String {
        "This server serves several databases: give database, one of \(names.joined(separator: ", "))."
    }
}
