import SwiftDBAI

/// One statement the classifier is timed on, with the operation it must be classified as.
struct ClassifierWorkload {
    var kind: String
    var sql: String
    var expectedOperation: SQLOperation

    /// A mix of reads and writes over the Chinook schema.
    static let chinook: [ClassifierWorkload] = [
        ClassifierWorkload(
            kind: "SELECT with WHERE",
            sql: """
                SELECT TrackId, Name, UnitPrice FROM Track
                WHERE GenreId = ? AND Milliseconds > 300000 ORDER BY Name LIMIT 50
                """,
            expectedOperation: .select),
        ClassifierWorkload(
            kind: "3-table JOIN",
            sql: """
                SELECT ar.Name AS artist, al.Title AS album, t.Name AS track
                FROM Artist ar
                JOIN Album al ON al.ArtistId = ar.ArtistId
                JOIN Track t ON t.AlbumId = al.AlbumId
                WHERE ar.Name LIKE 'A%' ORDER BY ar.Name, al.Title
                """,
            expectedOperation: .select),
        ClassifierWorkload(
            kind: "CTE",
            sql: """
                WITH sales AS (
                    SELECT CustomerId, SUM(Total) AS total FROM Invoice GROUP BY CustomerId
                )
                SELECT c.FirstName, c.LastName, s.total
                FROM sales s JOIN Customer c ON c.CustomerId = s.CustomerId
                ORDER BY s.total DESC LIMIT 10
                """,
            expectedOperation: .select),
        ClassifierWorkload(
            kind: "INSERT with parameters",
            sql: "INSERT INTO Artist (ArtistId, Name) VALUES (:id, :name)",
            expectedOperation: .insert),
        ClassifierWorkload(
            kind: "UPDATE",
            sql: "UPDATE Track SET UnitPrice = ? WHERE AlbumId = ? AND UnitPrice < 1.0",
            expectedOperation: .update),
        ClassifierWorkload(
            kind: "DELETE",
            sql: "DELETE FROM PlaylistTrack WHERE PlaylistId = ? AND TrackId = ?",
            expectedOperation: .delete),
    ]

    /// A 3-table join over the generated schema: classification should not depend on its size.
    static func synthetic(tableCount: Int) -> ClassifierWorkload {
        let first = SyntheticDatabase.tableName(0)
        let second = SyntheticDatabase.tableName(1 % tableCount)
        let third = SyntheticDatabase.tableName(2 % tableCount)
        return ClassifierWorkload(
            kind: "3-table JOIN, \(tableCount)-table schema",
            sql: """
                SELECT a.name, b.name, c.amount FROM \(first) a
                JOIN \(second) b ON b.id = a.parent_id
                JOIN \(third) c ON c.id = b.parent_id
                WHERE a.is_active = 1
                """,
            expectedOperation: .select)
    }
}
