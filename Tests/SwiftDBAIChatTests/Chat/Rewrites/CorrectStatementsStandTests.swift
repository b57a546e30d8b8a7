import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

/// A model that always writes a correct statement gets that statement's answer: nothing between
/// it and SQLite changes what it returns. The cases where the old corrections changed it, and
/// others of the same kinds.
@Suite("A correct statement keeps its answer")
struct CorrectStatementsStandTests {
    static let script = """
        CREATE TABLE products(id INTEGER PRIMARY KEY, name TEXT NOT NULL, price_cents INTEGER NOT NULL);
        CREATE TABLE customers(id INTEGER PRIMARY KEY, name TEXT NOT NULL, state TEXT, first_name TEXT, last_name TEXT);
        CREATE TABLE invoices(id INTEGER PRIMARY KEY, customer_id INTEGER NOT NULL REFERENCES customers(id), amount REAL NOT NULL,
            created_at TEXT NOT NULL);
        CREATE TABLE payments(id INTEGER PRIMARY KEY, invoice_id INTEGER NOT NULL REFERENCES invoices(id), paid REAL NOT NULL);
        INSERT INTO products VALUES (1, 'Mug', 1299), (2, 'Poster', 2550), (3, 'Print', 4000), (4, 'Pin', 199);
        INSERT INTO customers VALUES (1, 'Ada', 'West Virginia', 'Ada', 'Lovelace'), (2, 'Ben', 'Ohio', 'Ben', 'Lee'),
            (3, 'Cleo', 'Ohio', 'Cleo', 'Lee');
        INSERT INTO invoices VALUES (1, 1, 100, '2025-06-30 14:00:00'), (2, 2, 50, '2025-06-01 09:00:00'), (3, 2, 25, '2025-07-02 10:00:00');
        INSERT INTO payments VALUES (1, 1, 60), (2, 1, 40), (3, 2, 50);
        """

    @Test("each correct statement returns its own rows, as the model wrote it", arguments: [
        ("How many products cost over $20?", "SELECT COUNT(*) FROM products WHERE price_cents > 20 * 100", [[SQLValue.integer(2)]]),
        ("What is the total value of invoices that have been paid?",
         "SELECT SUM(i.amount) FROM invoices i WHERE i.id IN (SELECT p.invoice_id FROM payments p)", [[.real(150)]]),
        ("What is the total value of invoices that have been paid?",
         "SELECT SUM(DISTINCT i.amount) FROM invoices i JOIN payments p ON p.invoice_id = i.id", [[.real(150)]]),
        ("How many customers live in Virginia?", "SELECT COUNT(*) FROM customers WHERE state = 'Virginia'", [[.integer(0)]]),
        ("How many customers share a last name with another?",
         "SELECT COUNT(*) FROM customers c WHERE EXISTS (SELECT 1 FROM customers d WHERE d.last_name = c.last_name AND d.id <> c.id)",
         [[.integer(2)]]),
        ("List each customer's first and last name, the full name in two columns.",
         "SELECT first_name, last_name FROM customers ORDER BY id", [["Ada", "Lovelace"], ["Ben", "Lee"], ["Cleo", "Lee"]]),
        ("What is the biggest invoice total of a customer?",
         "SELECT SUM(amount) FROM invoices GROUP BY customer_id ORDER BY 1 DESC LIMIT 1", [[.real(100)]]),
        ("How much was invoiced up to June 30, 2025, by the invoice's day?",
         "SELECT SUM(amount) FROM invoices WHERE created_at < '2025-06-30'", [[.real(50)]]),
        ("Average product price in dollars, rounded to two decimals, including products with no sales?",
         "SELECT ROUND(AVG(price_cents) / 100.0, 2) FROM products", [[.real(20.12)]]),
    ] as [(String, String, [[SQLValue]])])
    func stands(question: String, sql: String, rows: [[SQLValue]]) async throws {
        let database = try ScratchDatabase(Self.script)
        let model = ScriptedModel([], fallback: .text(sql))
        let engine = ChatEngine(executor: try database.executor(), model: model, configuration: ChatConfiguration(summary: .deterministic).oneCandidate)
        let response = try await engine.send(question)
        #expect(response.sql == sql && response.modelSQL == sql && response.rewrites.isEmpty)
        #expect(response.queryResult?.rows == rows)
    }

    @Test("the model is told a stored value it compares is not there, and the answer says so")
    func unstoredValueIsADoubt() async throws {
        let database = try ScratchDatabase(Self.script)
        let sql = "SELECT COUNT(*) FROM customers WHERE state = 'Virginia'"
        let model = ScriptedModel([], fallback: .text(sql))
        let engine = ChatEngine(executor: try database.executor(), model: model, configuration: ChatConfiguration(summary: .deterministic).oneCandidate)
        let response = try await engine.send("How many customers live in Virginia?")
        #expect(response.queryResult?.rows == [[.integer(0)]] && response.attempts == 2)
        #expect(response.lookedAgainFor == ["'Virginia' is not a value of customers.state; its values are 'West Virginia', 'Ohio'."])
        #expect(response.doubts == response.lookedAgainFor)
    }
}
