import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The command line reads its settings as the live clients do: the environment over the
/// `LIFESIGNAL_CONFIG` file.
@Suite("Command line: config file")
struct ConfigFileCommandTests {
    /// Runs the executable with exactly `environment` (nothing inherited), so only the file
    /// can supply the server's URL and key.
    static func run(_ arguments: [String], environment: [String: String]) async throws -> CommandLineTests.Outcome {
        try await CommandLineTests.run(arguments, environment: environment)
    }

    @Test("the server's URL and key come from the file; a key that is not a setting is refused by name (exit 2)")
    func configFile() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        let server = try await TestServer.start(test.backend)
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-cli-config-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer {
            try? FileManager.default.removeItem(at: directory)
            Task { await server.stop() }
        }
        let file = directory.appendingPathComponent("config.json")
        let environment = ["LIFESIGNAL_CONFIG": file.path, "LIFESIGNAL_DATA_DIR": directory.path]

        try Data(#"{"url": "\#(server.baseURL.absoluteString)", "anon_key": "\#(server.anonKey)"}"#.utf8).write(to: file)
        var outcome = try await Self.run(["locations", "list"], environment: environment)
        #expect(outcome.status == 0 && outcome.output == "No locations.\n", "\(outcome.error)")

        try Data(#"{"url": "\#(server.baseURL.absoluteString)", "anonkey": "x"}"#.utf8).write(to: file)
        outcome = try await Self.run(["locations", "list"], environment: environment)
        #expect(outcome.status == 2)
        #expect(
            outcome.error == """
                error: "anonkey" in \(file.path) is not a setting; a key is a LIFESIGNAL_ variable's name without the prefix, in lower case ("provider", "database_url", …)

                """)
    }
}
