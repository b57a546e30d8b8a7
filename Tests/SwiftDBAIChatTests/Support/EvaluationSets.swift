import Foundation
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// The evaluation question sets of the repository (`Scripts/eval-questions`) and their
/// databases: Chinook and Northwind from `Examples/`, the generated ones made by
/// `Scripts/eval-data/make_NAME.py` (deterministic, seconds each) into a temporary folder once per
/// test run.
enum EvaluationSets {
    struct Question: Decodable, Sendable {
        var id: String
        var db: String
        var question: String
        var sql: String
        var ordered: Bool
    }

    static let repository = TestDatabase.sampleDataDirectory.deletingLastPathComponent()

    /// The names of the question files (`chinook-dev`, `rentals-heldout`, …).
    static var files: [String] {
        let folder = repository.appendingPathComponent("Scripts/eval-questions")
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".jsonl") }.map { String($0.dropLast(6)) }.sorted()
    }

    static func questions(in file: String) throws -> [Question] {
        let url = repository.appendingPathComponent("Scripts/eval-questions/\(file).jsonl")
        return try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map { line in
            try JSONDecoder().decode(Question.self, from: Data(line.utf8))
        }
    }

    /// The path of a question's database, generating it on first use.
    static func path(of database: String) async throws -> String {
        try await generated.path(of: database)
    }

    private static let generated = Generated()

    private actor Generated {
        private var paths: [String: String] = [:]
        private let folder = FileManager.default.temporaryDirectory.appendingPathComponent("dbai-evalsets-\(UUID().uuidString)")

        func path(of database: String) throws -> String {
            if let path = paths[database] { return path }
            let bundled = TestDatabase.samplePath(database)
            if FileManager.default.fileExists(atPath: bundled) { return bundled }
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let name = String(database.dropLast(".sqlite".count))
            let output = folder.appendingPathComponent(database).path
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = ["python3", repository.appendingPathComponent("Scripts/eval-data/make_\(name).py").path, output]
            process.standardOutput = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0 else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSLocalizedDescriptionKey: "make_\(name).py failed"])
            }
            paths[database] = output
            return output
        }
    }
}
