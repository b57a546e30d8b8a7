import ArgumentParser
import SwiftDBAIChat

/// `--llm-rewrites`: kinds of rewrites, comma-separated, or `none`.
struct RewriteKindList: ExpressibleByArgument {
    var kinds: Set<SQLRewriteKind>

    init(kinds: Set<SQLRewriteKind>) {
        self.kinds = kinds
    }

    init?(argument: String) {
        let words = argument.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        if words == ["none"] {
            kinds = []
            return
        }
        var kinds: Set<SQLRewriteKind> = []
        for word in words {
            guard let kind = SQLRewriteKind(rawValue: word) else { return nil }
            kinds.insert(kind)
        }
        guard !kinds.isEmpty else { return nil }
        self.kinds = kinds
    }

    var defaultValueDescription: String {
        SQLRewriteKind.allCases.filter(kinds.contains).map(\.rawValue).joined(separator: ",")
    }
}
