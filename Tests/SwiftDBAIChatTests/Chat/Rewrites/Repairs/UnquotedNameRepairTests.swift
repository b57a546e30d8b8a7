import Testing
@testable import SwiftDBAI
@testable import SwiftDBAIChat
import SwiftDBAITestSupport

@Suite("Repairing names with spaces left unquoted")
struct UnquotedNameRepairTests {
    static let schema = """
        CREATE TABLE "Order Details"(OrderID INTEGER, "Unit Price" REAL, Quantity INTEGER);
        CREATE TABLE "Order Details Extended"(OrderID INTEGER);
        CREATE TABLE Orders(OrderID INTEGER PRIMARY KEY);
        """

    @Test("bare words that spell a name with spaces are quoted; the longest name wins; strings stay as they are")
    func quoted() async throws {
        let schema = try await TestDatabase.schema(Self.schema)
        let sql = "SELECT SUM(od.unit price * od.Quantity) FROM Order Details od JOIN Order Details Extended x USING (OrderID) WHERE 'Order Details' <> ''"
        let repaired = UnquotedNameRepair().applied(to: sql, error: #"SQLite cannot compile the statement: near "price": syntax error."#, schema: schema)
        #expect(repaired == #"SELECT SUM(od."Unit Price" * od.Quantity) FROM "Order Details" od JOIN "Order Details Extended" x USING (OrderID) WHERE 'Order Details' <> ''"#)
    }

    @Test("no repair for other errors, for quoted names, or for words split by other than spaces")
    func refused() async throws {
        let schema = try await TestDatabase.schema(Self.schema)
        #expect(UnquotedNameRepair().applied(to: "SELECT * FROM Order Details", error: "no such table: Order", schema: schema) == nil)
        #expect(UnquotedNameRepair().applied(to: #"SELECT * FROM "Order Details" WHERE"#, error: "incomplete input: syntax error", schema: schema) == nil)
        #expect(UnquotedNameRepair().applied(to: "SELECT Order, Details FROM Orders", error: "near \"Order\": syntax error", schema: schema) == nil)
    }

    @Test("the engine runs the repaired statement without asking the model again")
    func inEngine() async throws {
        let database = try ScratchDatabase(Self.schema + #"INSERT INTO "Order Details" VALUES (1, 2.5, 4), (2, 1.0, 3);"#)
        let model = ScriptedModel([.text("SELECT SUM(Quantity) FROM Order Details")])
        let engine = ChatEngine(executor: try database.executor(.readOnly), model: model, configuration: ChatEngineTests.noSummary.oneCandidate)
        let response = try await engine.send("How many items were ordered?")
        #expect(response.sql == #"SELECT SUM(Quantity) FROM "Order Details""#)
        #expect(response.queryResult?.rows == [[7]])
        #expect(model.requests.count == 1)
    }
}
