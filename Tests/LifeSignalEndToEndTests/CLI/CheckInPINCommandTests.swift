import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalTestSupport
import Testing

/// `lifesignal check-in pin` and `check-in --pin` against a real server, through the Supabase
/// adapters: the PIN set, asked for, refused when wrong, and the duress PIN answered alike.
@Suite("Command line: check-in PIN")
struct CheckInPINCommandTests {
    @Test("pin --set/--duress/--remove; check-in needs --pin; a wrong one fails; the duress PIN's output is the PIN's")
    func pin() async throws {
        let phone = "+15550003301"
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phone)=271828"))
        let server = try await TestServer.start(test.backend)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-cli-pin-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: data)
            Task { await server.stop() }
        }
        func run(_ arguments: String...) async throws -> CommandLineTests.Outcome {
            try await CommandLineTests.run(arguments, server: server, dataDirectory: data)
        }
        #expect(try await run("login", "--phone", phone, "--code", "271828").status == 0)
        var outcome = try await run("check-in", "pin")
        #expect(outcome.status == 0 && outcome.output == "Check-ins do not ask for a PIN.\n", "\(outcome.output) \(outcome.error)")
        outcome = try await run("check-in", "pin", "--set", "12")
        #expect(outcome.status == 2 && outcome.error.contains("A check-in PIN is 4 to 8 digits"), "\(outcome.error)")
        outcome = try await run("check-in", "pin", "--set", "4821", "--duress", "7350")
        #expect(outcome.status == 0 && outcome.output == "Check-ins ask for your PIN. You have a duress PIN too.\n", "\(outcome.output) \(outcome.error)")

        outcome = try await run("check-in")
        #expect(outcome.status != 0 && outcome.error.contains("This check-in needs your PIN"), "\(outcome.error)")
        outcome = try await run("check-in", "--pin", "1111")
        #expect(outcome.status != 0 && outcome.error.contains("That is not your check-in PIN"), "\(outcome.error)")
        #expect(try await test.count("check_ins") == 0)
        let duress = try await run("check-in", "--pin", "7350")
        #expect(duress.status == 0 && duress.output.hasPrefix("Checked in. Next deadline: "), "\(duress.output) \(duress.error)")
        test.clock.advance(by: 600)
        let normal = try await run("check-in", "--pin", "4821")
        #expect(normal.status == 0 && normal.output.hasPrefix("Checked in. Next deadline: "))
        #expect(try await test.count("check_ins") == 2)

        outcome = try await run("check-in", "pin", "--remove", "--json")
        #expect(outcome.status == 0 && outcome.output.contains("\"pin\" : false"), "\(outcome.output)")
    }
}
