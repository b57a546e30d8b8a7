import SwiftDBAI

extension ChatEngine {
    /// The column profiles of the schema's version, made on first use within
    /// ``profileBudget``; none when the database cannot be read (they only add hints).
    func currentColumnProfiles(of schema: DatabaseSchema) async -> [ColumnProfile] {
        if let columnProfiles, columnProfiles.version == schema.schemaVersion { return columnProfiles.profiles }
        let profiles = (try? await executor.columnProfiles(in: schema, budget: Self.profileBudget)) ?? []
        columnProfiles = (schema.schemaVersion, profiles)
        return profiles
    }

    /// How long the column profiles may take to make, once per schema version.
    static let profileBudget: Duration = .seconds(1)
}
