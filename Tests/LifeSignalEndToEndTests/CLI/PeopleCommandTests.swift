import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The people commands of `lifesignal` as two people run them on their own machines (one
/// session file each) against one real server: link by QR, SOS heard live by `watch`, pings,
/// the notification centre, role requests, and the errors a person can make.
@Suite("Command line: people")
struct PeopleCommandTests {
    static let alicePhone = "+15550003101", bobPhone = "+15550003102"

    @Test("profile, contacts, alert, watch, ping and notifications between a dependent and a responder")
    func story() async throws {
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(Self.alicePhone)=111111,\(Self.bobPhone)=222222"))
        let server = try await TestServer.start(test.backend)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-cli-people-\(UUID().uuidString)")
        let aliceData = root.appendingPathComponent("alice")
        let bobData = root.appendingPathComponent("bob")
        defer {
            try? FileManager.default.removeItem(at: root)
            Task { await server.stop() }
        }
        func alice(_ arguments: String...) async throws -> CommandLineTests.Outcome {
            try await CommandLineTests.run(arguments, server: server, dataDirectory: aliceData)
        }
        func bob(_ arguments: String...) async throws -> CommandLineTests.Outcome {
            try await CommandLineTests.run(arguments, server: server, dataDirectory: bobData)
        }
        func object(_ outcome: CommandLineTests.Outcome) throws -> [String: Any] {
            try #require(
                try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any], "not a JSON object: \(outcome.output) \(outcome.error)")
        }

        var outcome = try await alice("login", "--phone", "555-000310", "--code", "111111")
        #expect(outcome.status == 2 && outcome.error == "error: \"555-000310\" is not a United States number: it should have 10 digits\n")
        outcome = try await alice("login", "--phone", "5550003101", "--region", "ZZ")
        #expect(outcome.status == 64 && outcome.error.contains("Unknown region \"ZZ\""))
        // Typed the way it is dialled at home, read in the default region (US).
        outcome = try await alice("login", "--phone", "(555) 000-3101", "--code", "111111")
        #expect(
            outcome.status == 0 && outcome.output == "Signed in as \(Self.alicePhone).\n"
                || outcome.output == "Signed in as \(Self.alicePhone) (new account).\n")
        #expect(try await bob("login", "--phone", Self.bobPhone, "--code", "222222").status == 0)
        outcome = try await alice("profile", "set", "--first-name", "Alice", "--interval-hours", "12", "--reminder", "2_hours")
        #expect(outcome.status == 0 && outcome.output.hasPrefix("Alice · \(Self.alicePhone)\nChecks in every 12 h; reminder: 2_hours"))
        outcome = try await alice("profile", "set", "--interval-hours", "500")
        #expect(outcome.status == 2 && outcome.error.contains("between 1 hour and 7 days"))
        _ = try await bob("profile", "set", "--first-name", "Bob")
        #expect(try await alice("check-in").status == 0)
        outcome = try await alice("check-in")
        #expect(outcome.status == 1 && outcome.error.hasPrefix("error: You checked in less than 5 minutes ago"), "\(outcome.error)")

        // The profile hands out no QR code: only `contacts qr` shows one that links.
        let profile = try object(try await alice("profile", "--json"))
        #expect(profile["first_name"] as? String == "Alice" && profile["qr_code_id"] == nil)
        let qr = try object(try await alice("contacts", "qr", "--json"))
        let code = try #require(qr["qr_code_id"] as? String)
        #expect((qr["expires_at"] as? String).flatMap(Timestamp.parse) == test.clock.now.addingTimeInterval(600))
        outcome = try await alice("contacts", "qr", "--link-base", "https://ls.example/")
        // The code drawn in half blocks, then the link it holds, then the code and how long it works.
        let lines = outcome.output.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 20 && lines.dropLast(3).allSatisfy { $0.allSatisfy { " ▀▄█".contains($0) } }, "\(outcome.output)")
        #expect(outcome.output.contains("\nhttps://ls.example/l/\(code)\nCode \(code), valid until "))
        #expect(outcome.output.hasSuffix(", for one person to link to you.\n"))
        outcome = try await bob("contacts", "add", code, "--role", "dependent")
        #expect(outcome.status == 0 && outcome.output == "Linked to Alice as your dependent.\n")
        // The code linked one person: it finds nobody now, and Alice is shown a new one.
        outcome = try await bob("contacts", "add", code, "--role", "dependent")
        #expect(outcome.status == 5 && outcome.error == "error: QR code was not found\n")
        #expect(try object(try await alice("contacts", "qr", "--json"))["qr_code_id"] as? String != code)
        outcome = try await bob("contacts", "add", "not-a-code")
        #expect(outcome.status == 2 && outcome.error == "error: \"not-a-code\" is not a LifeSignal QR code; scan it again or paste the whole code\n")
        outcome = try await alice("contacts")
        #expect(outcome.output.hasPrefix("Bob (responder) · \(Self.bobPhone)"))
        let fresh = try #require(try object(try await alice("contacts", "qr", "--reset", "--json"))["qr_code_id"] as? String)
        let shown = try object(try await alice("contacts", "qr", "--json"))["qr_code_id"] as? String
        #expect(fresh != code && shown == fresh)

        // Bob watches; Alice raises an SOS; Bob's watch prints it and stops after one event.
        let watch = try CommandLineTests.start(["watch", "--count", "1"], server: server, dataDirectory: bobData)
        #expect(try await watch.waitForOutput(containing: "Watching."), "watch did not start: \(watch.collected)")
        outcome = try await alice("alert", "on")
        #expect(outcome.status == 0 && outcome.output.hasPrefix("SOS raised at "))
        let watched = try await watch.finish(within: 60)
        #expect(watched.status == 0 && watched.output.contains("Alice"), "watch printed: \(watched.output) \(watched.error)")

        outcome = try await bob("alert", "respond", "ali")
        #expect(outcome.status == 0 && outcome.output == "Alice has been told you are responding.\n")
        let status = try object(try await alice("alert", "status", "--json"))
        #expect(status["active"] as? Bool == true && status["responders"] as? [String] == ["Bob"])
        #expect(try await alice("alert", "off").status == 0)
        outcome = try await alice("alert", "off")
        #expect(outcome.status == 5, "cancelling twice: \(outcome.error)")

        outcome = try await bob("ping", "send", "Alice")
        #expect(outcome.status == 0 && outcome.output == "Pinged Alice.\n")
        outcome = try await alice("ping", "answer")
        #expect(outcome.status == 64 && outcome.error.contains("Name one responder, or pass --all"))
        #expect(try object(try await alice("ping", "answer", "--all", "--json"))["answered"] as? Int == 1)
        outcome = try await bob("ping", "send", "Zed")
        #expect(outcome.status == 5 && outcome.error == "error: Contact \"Zed\" was not found\n")

        outcome = try await bob("notifications", "--json")
        let bobs = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [[String: String]])
        #expect(bobs.contains { $0["type"] == "alert_activated_received" } && bobs.contains { $0["type"] == "ping_responded" })
        outcome = try await bob("notifications", "clear", "--type", "alerts")
        #expect(outcome.status == 0 && outcome.output.hasPrefix("Cleared "))
        outcome = try await bob("notifications", "--type", "alerts")
        #expect(outcome.output == "No notifications.\n")
        outcome = try await bob("notifications", "clear", "--type", "nonsense")
        #expect(outcome.status == 2 && outcome.error.hasPrefix("error: Unknown category \"nonsense\""))
        #expect(try object(try await bob("notifications", "read", "--all", "--json"))["marked_read"] as? Int ?? 0 > 0)
        outcome = try await bob("notifications", "--unread")
        #expect(outcome.output == "No notifications.\n")

        outcome = try await bob("contacts", "roles", "Alice", "--role", "both")
        #expect(outcome.status == 0 && outcome.output == "Alice is now your responder & dependent.\n")
        // Dropping a role is one-sided; becoming Bob's responder waits for Bob.
        outcome = try await bob("contacts", "roles", "Alice", "--role", "dependent")
        #expect(outcome.status == 0 && outcome.output == "Alice is now your dependent.\n")
        outcome = try await alice("contacts", "roles", "Bob", "--role", "both")
        let sent = try #require(try object(try await alice("contacts", "requests", "--json"))["sent"] as? [[String: String]])
        let request = try #require(sent.first?["id"])
        #expect(sent.count == 1 && sent.first?["to"] == "Bob")
        #expect(
            outcome.status == 0
                && outcome.output == """
                    Bob is now your responder.
                    Request sent, waiting for Bob to accept you as their responder · \(request)

                    """
        )
        outcome = try await bob("contacts", "requests")
        #expect(outcome.output == "Alice asks to become your responder · \(request)\n")
        outcome = try await alice("contacts", "requests", "accept", request)
        #expect(outcome.status == 5 && outcome.error == "error: Role request was not found\n")
        outcome = try await bob("contacts", "requests", "accept", request)
        #expect(outcome.status == 0 && outcome.output == "Alice is now your responder & dependent.\n")
        outcome = try await bob("contacts", "requests")
        #expect(outcome.output == "No role requests.\n")
        outcome = try await bob("contacts", "remove", "Alice")
        #expect(outcome.status == 0 && outcome.output == "Removed Alice.\n")
        outcome = try await alice("contacts")
        #expect(outcome.output.hasPrefix("No contacts yet."))
    }
}
