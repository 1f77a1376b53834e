import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Issue 19's commands as two people run them against one real server: escalation settings,
/// a responder's tier, pause and resume, an SOS with a location, "They're safe", and the
/// channel choices. Alice checks in; Bob is her responder.
@Suite("Command line: escalation and channels")
struct EscalationCommandTests {
    static let alicePhone = "+15550003201", bobPhone = "+15550003202"

    @Test("check-in settings, pause and resume; contacts tier; alert on with a place and alert safe; notifications channels")
    func story() async throws {
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(Self.alicePhone)=111111,\(Self.bobPhone)=222222"))
        let server = try await TestServer.start(test.backend)
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-cli-escalation-\(UUID().uuidString)")
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

        #expect(try await alice("login", "--phone", Self.alicePhone, "--code", "111111").status == 0)
        #expect(try await bob("login", "--phone", Self.bobPhone, "--code", "222222").status == 0)
        _ = try await alice("profile", "set", "--first-name", "Alice")
        _ = try await bob("profile", "set", "--first-name", "Bob")
        let code = try #require(try object(try await alice("contacts", "qr", "--json"))["qr_code_id"] as? String)
        #expect(try await bob("contacts", "add", code, "--role", "dependent").status == 0)

        var outcome = try await alice("check-in", "settings")
        #expect(
            outcome.status == 0 && outcome.output.hasPrefix("Grace: none · next tier after: 2h · repeat: off\n  tier 1: Bob · "),
            "\(outcome.output) \(outcome.error)")
        let changed = try object(try await alice("check-in", "settings", "--grace", "15m", "--tier-delay", "1h", "--repeat", "30m", "--json"))
        #expect(changed["grace_seconds"] as? Int == 900 && changed["tier_delay_seconds"] as? Int == 3600 && changed["repeat_seconds"] as? Int == 1800)
        outcome = try await alice("check-in", "settings", "--repeat", "off")
        #expect(outcome.status == 0 && outcome.output.hasPrefix("Grace: 15m · next tier after: 1h · repeat: off\n"), "\(outcome.output) \(outcome.error)")
        outcome = try await alice("check-in", "settings", "--grace", "25h")
        #expect(outcome.status == 2 && outcome.error.contains("graceSeconds must be from 0 to 86400"), "\(outcome.error)")
        outcome = try await alice("check-in", "settings", "--grace", "soon")
        #expect(outcome.status == 2 && outcome.error.contains("--grace takes a duration such as 15m"), "\(outcome.error)")

        outcome = try await alice("contacts", "tier", "Bob", "2")
        #expect(outcome.status == 0 && outcome.output == "Bob is in tier 2.\n", "\(outcome.output) \(outcome.error)")
        outcome = try await alice("contacts", "tier", "Bob", "10")
        #expect(outcome.status == 2 && outcome.error.contains("tier must be from 1 to 9"), "\(outcome.error)")
        // Alice is Bob's dependent, not his responder: he has nobody to put in a tier.
        outcome = try await bob("contacts", "tier", "Alice", "2")
        #expect(outcome.status == 5 && outcome.error == "error: Contact \"Alice\" was not found\n", "\(outcome.error)")

        let until = Timestamp.format(test.clock.now.addingTimeInterval(8 * 3600))
        outcome = try await alice("check-in", "pause", "--until", until, "--json")
        #expect(outcome.status == 0, "\(outcome.output) \(outcome.error)")
        #expect((try object(outcome)["paused_until"] as? String).flatMap(Timestamp.parse) == Timestamp.parse(until))
        outcome = try await alice("check-in", "pause", "--until", "tomorrow")
        #expect(outcome.status == 2 && outcome.error.contains("--until takes a time"), "\(outcome.error)")
        outcome = try await alice("check-in", "resume")
        #expect(outcome.status == 0 && !outcome.output.contains("paused"), "\(outcome.output) \(outcome.error)")
        outcome = try await alice("check-in", "resume")
        #expect(outcome.status == 1 && outcome.error == "error: Check-ins are not paused\n", "\(outcome.error)")
        // Checking in is still `check-in` alone.
        outcome = try await alice("check-in", "--json")
        #expect(outcome.status == 0, "\(outcome.output) \(outcome.error)")
        #expect(try object(outcome)["deadline"] as? String != nil)

        outcome = try await alice("alert", "on", "--lat", "91", "--lon", "0")
        #expect(outcome.status == 2 && outcome.error.contains("location.latitude must be from -90 to 90"), "\(outcome.error)")
        outcome = try await alice("alert", "on", "--lat", "51.5")
        #expect(outcome.status == 2 && outcome.error.contains("Give both --lat and --lon"), "\(outcome.error)")
        outcome = try await alice("alert", "on", "--lat", "51.5007", "--lon=-0.1246", "--accuracy", "20")
        #expect(outcome.status == 0 && outcome.output.hasSuffix("your responders have been told where you are.\n"), "\(outcome.output) \(outcome.error)")
        let stored = try #require(
            try await test.backend.database.query("SELECT latitude, longitude, accuracy_meters FROM alerts WHERE status = 'active'").first)
        #expect(try stored.double("latitude") == 51.5007 && stored.double("longitude") == -0.1246 && stored.double("accuracy_meters") == 20)

        outcome = try await bob("alert", "respond", "ali")
        #expect(outcome.status == 0)
        outcome = try await bob("alert", "safe", "ali")
        #expect(
            outcome.status == 0 && outcome.output == "Alice is marked safe; everyone who was told hears the all-clear.\n", "\(outcome.output) \(outcome.error)")
        #expect(try object(try await alice("alert", "status", "--json"))["active"] as? Bool == false)
        outcome = try await bob("alert", "safe", "ali")
        #expect(outcome.status == 5 && outcome.error == "error: An active alert from Alice was not found\n", "\(outcome.error)")

        outcome = try await alice("notifications", "channels")
        #expect(outcome.status == 0 && outcome.output == "push: all\nsms: urgent\nemail: urgent\nvoice: off\n", "\(outcome.output) \(outcome.error)")
        let channels = try object(try await alice("notifications", "channels", "--sms", "off", "--email", "all", "--voice", "urgent", "--json"))
        #expect(channels as? [String: String] == ["push": "all", "sms": "off", "email": "all", "voice": "urgent"])
        outcome = try await alice("notifications", "channels", "--push", "off", "--email", "off", "--voice", "off")
        #expect(
            outcome.output == "push: off\nsms: off\nemail: off\nvoice: off\nEvery channel is off: you hear of alerts only in the app.\n",
            "\(outcome.output) \(outcome.error)")
        outcome = try await alice("notifications", "channels", "--push", "loud")
        #expect(outcome.status == 2 && outcome.error == "error: --push is all, urgent or off, not \"loud\"\n", "\(outcome.error)")
        #expect(
            try object(try await bob("notifications", "channels", "--json")) as? [String: String] == [
                "push": "all", "sms": "urgent", "email": "urgent", "voice": "off",
            ])
    }
}
