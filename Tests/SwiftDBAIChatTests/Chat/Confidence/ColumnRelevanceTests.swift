import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("ColumnRelevance: columns read that nothing in the question points to")
struct ColumnRelevanceTests {
    static let script = """
        CREATE TABLE customers (id INTEGER PRIMARY KEY, name TEXT, email TEXT, fax TEXT, country TEXT);
        CREATE TABLE invoices (id INTEGER PRIMARY KEY, customer_id INTEGER REFERENCES customers(id), total REAL, billed_on TEXT, memo TEXT);
        INSERT INTO customers VALUES (1, 'Ana', 'ana@example.com', NULL, 'Brazil');
        INSERT INTO invoices VALUES (1, 1, 9.9, '2025-01-02', 'late');
        """

    func unrelated(_ sql: String, question: String, examples: [ChatExample] = [], values: [ValueMatch] = [],
                   descriptions: [String: String] = [:]) async throws -> [String] {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor()
        var schema = try await executor.schema()
        schema.tables = schema.tables.map { table in
            var table = table
            table.columns = table.columns.map { column in
                var column = column
                column.description = descriptions["\(table.name).\(column.name)"]
                return column
            }
            return table
        }
        let read = try await executor.classify(sql).columnsRead
        return ColumnRelevance(schema: schema, question: question, examples: examples, namedValues: values).unrelatedColumns(in: read)
    }

    @Test("SQLite reports every column a statement reads, through joins, conditions and SELECT *; not count(*)")
    func columnsRead() async throws {
        let executor = try ScratchDatabase(Self.script).executor()
        let read = try await executor.classify(
            "SELECT c.name, sum(i.total) FROM customers c JOIN invoices i ON i.customer_id = c.id WHERE c.country = 'Brazil' GROUP BY c.id").columnsRead
        #expect(read == ["customers": ["id", "name", "country"], "invoices": ["customer_id", "total"]])
        #expect(try await executor.classify("SELECT count(*) FROM invoices").columnsRead == ["invoices": []])
        #expect(try await executor.classify("SELECT * FROM customers").columnsRead["customers"] == ["id", "name", "email", "fax", "country"])
    }

    @Test("keys, the question's words (plurals, a shared start), a table's naming column and a named value are related")
    func related() async throws {
        #expect(try await unrelated(
            "SELECT c.name, sum(i.total) FROM customers c JOIN invoices i ON i.customer_id = c.id WHERE c.country = 'Brazil' GROUP BY c.id",
            question: "What is the invoice total of each customer in Brazil?",
            values: [ValueMatch(phrase: "Brazil", table: "customers", column: "country", value: "Brazil")]).isEmpty)
        #expect(try await unrelated("SELECT email FROM customers", question: "Show the customers' e-mail addresses, emails only").isEmpty)
        #expect(try await unrelated("SELECT billed_on FROM invoices", question: "When was each invoice billed?").isEmpty)
    }

    @Test("a column nothing points to is unrelated; a description or an example that names it makes it related")
    func unrelatedColumns() async throws {
        #expect(try await unrelated("SELECT fax, memo FROM customers JOIN invoices ON invoices.customer_id = customers.id",
                                    question: "How do I reach each customer?") == ["customers.fax", "invoices.memo"])
        #expect(try await unrelated("SELECT fax FROM customers", question: "How do I reach each customer?",
                                    descriptions: ["customers.fax": "How to reach the customer when e-mail fails."]).isEmpty)
        #expect(try await unrelated("SELECT memo FROM invoices", question: "Which invoices came late?",
                                    examples: [ChatExample(question: "Late invoices", sql: "SELECT id FROM invoices WHERE memo = 'late'")]).isEmpty)
    }
}
