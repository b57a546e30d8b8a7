import Foundation
import GRDB
import Testing
@testable import SwiftDBAI
import SwiftDBAITestSupport

/// A table hidden by a ``TableAllowlistValidator`` is indistinguishable from a table that does
/// not exist, in every message, and nothing visible reveals its name.
@Suite("Hidden tables look missing")
struct HiddenTableTests {
    static let script = """
        CREATE TABLE dept(id INTEGER PRIMARY KEY, name TEXT);
        CREATE TABLE zz_secret_payroll(id INTEGER PRIMARY KEY, dept_id INTEGER, salary_amount INTEGER);
        CREATE INDEX zz_secret_idx ON zz_secret_payroll(salary_amount);
        CREATE TABLE staff(id INTEGER PRIMARY KEY, name TEXT,
            payroll_id INTEGER REFERENCES zz_secret_payroll(id), dept_id INTEGER REFERENCES dept(id));
        CREATE VIEW staff_pay AS SELECT s.name, p.salary_amount FROM staff s JOIN zz_secret_payroll p ON p.id = s.payroll_id;
        CREATE VIEW staff_names AS SELECT name FROM staff;
        CREATE TRIGGER staff_audit AFTER UPDATE ON staff BEGIN
            UPDATE zz_secret_payroll SET salary_amount = salary_amount WHERE id = NEW.payroll_id;
        END;
        INSERT INTO dept VALUES (1, 'R&D');
        INSERT INTO zz_secret_payroll VALUES (1, 1, 100000);
        INSERT INTO staff VALUES (1, 'Ada', 1, 1);
        """

    /// The hidden names, and names of nothing, swapped to compare the answers.
    static let swaps = [("zz_secret_payroll", "qq_missing_table"), ("zz_secret_idx", "qq_missing_idx"), ("staff_pay", "qq_missing_view")]

    static func swapped(_ text: String) -> String {
        swaps.reduce(text) { $0.replacingOccurrences(of: $1.0, with: $1.1) }
    }

    func executor(_ database: ScratchDatabase, _ allowlist: OperationAllowlist = .unrestricted) throws -> SQLExecutor {
        // staff_pay is listed, but it reads the hidden table: it is hidden too.
        try database.executor(allowlist, validators: [TableAllowlistValidator(["dept", "staff", "staff_pay", "staff_names"])])
    }

    @Test("a statement naming a hidden table or view is refused exactly like one naming nothing", arguments: [
        "SELECT * FROM zz_secret_payroll",
        "SELECT salary_amount FROM zz_secret_payroll",
        "SELECT * FROM main.zz_secret_payroll",
        "SELECT * FROM \"zz_secret_payroll\"",
        "SELECT * FROM staff_pay",
        "SELECT name FROM staff WHERE payroll_id IN (SELECT id FROM zz_secret_payroll)",
        "SELECT zz_secret_payroll.salary_amount FROM staff",
        "INSERT INTO zz_secret_payroll VALUES (2, 1, 1)",
        "DELETE FROM zz_secret_payroll",
        "UPDATE zz_secret_payroll SET salary_amount = 0",
        "PRAGMA table_info(zz_secret_payroll)",
        "PRAGMA index_info(zz_secret_idx)",
        "PRAGMA foreign_key_list(zz_secret_payroll)",
        "SELECT * FROM staff INDEXED BY zz_secret_idx",
    ])
    func refusedLikeMissing(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try executor(database)
        let hidden = await caughtError { () async throws(SwiftDBAIError) in try await executor.check(sql) }
        let missing = await caughtError { () async throws(SwiftDBAIError) in try await executor.check(Self.swapped(sql)) }
        #expect(hidden != nil)
        #expect(hidden.map { Self.swapped($0.description) } == missing?.description, "\(sql)")
        if case .rejected(let a)? = hidden, case .rejected(let b)? = missing {
            #expect(a.code == b.code)
        }
    }

    @Test("a statement that reaches a hidden table indirectly is refused without naming it", arguments: [
        "UPDATE staff SET name = 'Bo'",  // the trigger writes the hidden table
        "SELECT * FROM pragma_table_info('staff')",  // may report on any table
        "PRAGMA table_list",
        "SELECT name FROM sqlite_schema",
        "SELECT * FROM pragma_index_list('staff')",
    ])
    func indirectReach(sql: String) async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try executor(database)
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.check(sql) }
        #expect(error != nil)
        #expect(error?.description.contains("zz_secret") == false, "\(String(describing: error))")
        #expect(error?.description.contains("salary") == false)
    }

    @Test("the visible schema has no hidden table, no view over one, and no key or text that names one")
    func visibleSchema() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try executor(database)
        let schema = try await executor.schema(includingRowCounts: true)
        #expect(Set(schema.tableNames) == ["dept", "staff", "staff_names"])
        let json = String(decoding: try JSONEncoder().encode(schema), as: UTF8.self)
        #expect(!json.contains("zz_secret"))
        #expect(!json.contains("salary"))
        let staff = try #require(schema.table(named: "staff"))
        #expect(staff.foreignKeys.map(\.referencedTable) == ["dept"])
        #expect(staff.sql.contains("REFERENCES \"dept\""))
        let description = try await executor.schemaDescription(sampleRowCount: 3)
        #expect(!description.contains("zz_secret"))
        #expect(description.contains("Ada"))
    }

    @Test("visible tables stay fully usable")
    func visibleWorks() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try executor(database)
        let rows = try await executor.query("SELECT s.name, d.name FROM staff s JOIN dept d ON d.id = s.dept_id")
        #expect(rows.rows == [[.text("Ada"), .text("R&D")]])
        #expect(try await executor.query("SELECT * FROM staff_names").rowCount == 1)
        #expect(try await executor.query("PRAGMA table_info(staff)").rowCount == 4)
        #expect(try await executor.execute("INSERT INTO dept VALUES (2, 'Ops')").rowsAffected == 1)
    }

    @Test("without hidden tables, a PRAGMA naming nothing is refused with the same message")
    func pragmaOnMissing() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try database.executor()
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.check("PRAGMA table_info(nothing_here)") }
        #expect(error?.description.contains("no such table or index: nothing_here") == true)
    }

    /// Replaces a visible view, between the checks and the run, with one over the hidden table.
    struct SwappingDelegate: SQLExecutionDelegate {
        let path: String

        func willExecuteSQL(_ statement: ClassifiedStatement) async {
            guard let queue = try? DatabaseQueue(path: path) else { return }
            try? await queue.write { db in
                try db.execute(sql: "DROP VIEW staff_names; CREATE VIEW staff_names AS SELECT salary_amount AS name FROM zz_secret_payroll")
            }
            try? queue.close()
        }
    }

    @Test("a read is authorized again in the access that runs it")
    func reauthorized() async throws {
        let database = try ScratchDatabase(Self.script)
        let executor = try executor(database).withDelegate(SwappingDelegate(path: database.path))
        let error = await caughtError { () async throws(SwiftDBAIError) in try await executor.query("SELECT * FROM staff_names") }
        #expect(error != nil)
        #expect(error?.description.contains("100000") == false)
    }
}
