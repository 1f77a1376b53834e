import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// `lifesignal deliveries` reads the ledger of the database it is pointed at, as an operator
/// runs it beside a server.
@Suite("Command line: deliveries")
struct DeliveriesCommandTests {
    @Test("the ledger by status and channel, with a summary line, addresses masked; JSON on request")
    func ledger() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let session = try await test.signIn("+15550004004")
        let now = test.clock.now
        for (index, status) in ["sent", "sent", "failed", "queued"].enumerated() {
            try await test.backend.database.query(
                SQL(
                    """
                    INSERT INTO deliveries (id, notification_id, user_id, channel, address, kind, title, body, status, attempts, next_attempt_at,
                    last_error, created_at, updated_at) VALUES ($1, $2, $3, 'sms', $4, 'alert_activated_received', 'T', 'B', $5, 1, $6, $7, $6, $6)
                    """,
                    bindings: [
                        .uuid(UUID()), .uuid(UUID()), .uuid(session.user.id.rawValue), .text("+1555200000\(index)"), .text(status),
                        .timestamp(now.addingTimeInterval(Double(index))), status == "failed" ? .text("21211 invalid number") : .null,
                    ]))
        }
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-cli-deliveries-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: data) }
        let environment = ["LIFESIGNAL_DATA_DIR": data.path]
        let database = test.backend.database.location

        var outcome = try await ConfigFileCommandTests.run(["deliveries", "--database", database], environment: environment)
        #expect(outcome.status == 0, "\(outcome.error)")
        let lines = outcome.output.split(separator: "\n").map(String.init)
        #expect(
            lines.first == "sms: 1 queued, 2 sent, 1 failed; oldest waiting 0 s" || lines.first?.hasPrefix("sms: 1 queued, 2 sent, 1 failed") == true,
            "\(outcome.output)")
        #expect(lines.count == 5 && !outcome.output.contains("+15552000003") && outcome.output.contains("+1555…03"))
        #expect(lines.contains { $0.contains("failed") && $0.contains("error: 21211 invalid number") })

        outcome = try await ConfigFileCommandTests.run(["deliveries", "--database", database, "--status", "sent", "--json"], environment: environment)
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [[String: Any]], "\(outcome.error)")
        #expect(rows.count == 2 && rows.allSatisfy { $0["status"] as? String == "sent" && $0["channel"] as? String == "sms" })

        outcome = try await ConfigFileCommandTests.run(["deliveries", "--database", database, "--status", "lost"], environment: environment)
        #expect(outcome.status != 0 && outcome.error.contains("lost"))
    }
}
