import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The `lifesignal` executable as a person runs it: a separate process talking to a real
/// server over HTTP, its session kept in a file between commands.
@Suite("Command line against a server")
struct CommandLineTests {
    struct Outcome {
        var status: Int32
        var output: String
        var error: String
    }

    /// The executable `swift build` put beside this test bundle.
    static var executable: URL {
        URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
            .appendingPathComponent("lifesignal")
    }

    /// The environment a person running `lifesignal` against `server` has, with the session
    /// and data under `dataDirectory`.
    static func environment(server: TestServer, dataDirectory: URL) -> [String: String] {
        var environment = ProcessInfo.processInfo.environment
        environment["LIFESIGNAL_DATA_DIR"] = dataDirectory.path
        environment["LIFESIGNAL_URL"] = server.baseURL.absoluteString
        environment["LIFESIGNAL_ANON_KEY"] = server.anonKey
        return environment
    }

    static func run(_ arguments: [String], server: TestServer, dataDirectory: URL) async throws -> Outcome {
        try await run(arguments, environment: environment(server: server, dataDirectory: dataDirectory))
    }

    /// Runs the executable with exactly `environment`; a bound of 300 s against a hang.
    static func run(_ arguments: [String], environment: [String: String]) async throws -> Outcome {
        let result = try await ChildProcess.run(executable.path, arguments: arguments, environment: environment, within: .seconds(300))
        return Outcome(status: result.status, output: result.output, error: result.error)
    }

    @Test("login, check-in, status and the content commands, with readable output, JSON and exit codes")
    func contentRoundTrip() async throws {
        #expect(FileManager.default.isExecutableFile(atPath: Self.executable.path), "missing \(Self.executable.path)")
        let phone = "+15550003003"
        let test = try await TestDatabases.backend(.sqlite, testOTPs: try TestOTPs(parsing: "\(phone)=314159"))
        let server = try await TestServer.start(test.backend)
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-cli-\(UUID().uuidString)")
        defer {
            try? FileManager.default.removeItem(at: data)
            Task { await server.stop() }
        }
        func run(_ arguments: String...) async throws -> Outcome { try await Self.run(arguments, server: server, dataDirectory: data) }

        var outcome = try await run("locations", "list")
        #expect(outcome.status == 0 && outcome.output == "No locations.\n")
        outcome = try await run("locations", "add", "--name", "Anon")
        #expect(outcome.status == 3 && outcome.error == "error: Sign in first: lifesignal login --phone <number>\n")
        outcome = try await run("login", "--phone", phone, "--code", "000000")
        #expect(outcome.status == 2 && outcome.error == "error: The code is wrong; check the SMS and try again\n")
        outcome = try await run("login", "--phone", phone, "--code", "314159")
        #expect(outcome.status == 0 && outcome.output == "Signed in as \(phone) (new account).\n")
        let session = try FileManager.default.attributesOfItem(atPath: data.appendingPathComponent("cli-session.json").path)
        #expect((session[.posixPermissions] as? NSNumber)?.intValue == 0o600)

        outcome = try await run("check-in")
        #expect(outcome.status == 0 && outcome.output.hasPrefix("Checked in. Next deadline: "))
        outcome = try await run("status", "--json")
        let status = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(status["band"] as? String == "green" && status["interval_seconds"] as? Int == 86400)

        // Writing content over PostgREST takes an editor (docs/security.md, "Content"): the
        // service role makes this person one, and a new sign-in carries the role.
        outcome = try await run("locations", "add", "--name", "Not yet")
        #expect(outcome.status != 0 && outcome.error.contains("Only content editors may add"), "\(outcome.error)")
        let userID = try #require(try await test.backend.database.query(SQL.raw("SELECT id FROM auth_users")).first?.uuid("id"))
        try await server.makeEditor(userID.uuidString.lowercased())
        outcome = try await run("login", "--phone", phone, "--code", "314159")
        #expect(outcome.status == 0, "\(outcome.error)")

        outcome = try await run("locations", "add", "--name", "Fiddletown Cellars", "--website", "fiddletown.example", "--status", "published", "--json")
        #expect(outcome.status == 0)
        let added = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        #expect(added["slug"] as? String == "fiddletown-cellars" && added["website_url"] as? String == "https://fiddletown.example")
        let id = try #require(added["id"] as? String)
        outcome = try await run("locations", "edit", id, "--region", "Amador", "--sort-order", "2")
        #expect(outcome.status == 0)
        #expect(outcome.output.hasPrefix("Saved Fiddletown Cellars [published] · slug fiddletown-cellars · order 2 · Amador · https://fiddletown.example"))
        outcome = try await run("locations", "list", "--search", "CELLAR", "--status", "published")
        #expect(outcome.output.hasPrefix("Fiddletown Cellars [published]") && outcome.output.split(separator: "\n").count == 1)
        outcome = try await run("locations", "add", "--name", "Fiddletown  cellars!")
        #expect(outcome.status == 6 && outcome.error == "error: A location with the slug \"fiddletown-cellars\" already exists\n")

        _ = try await run("events", "add", "--name", "Harvest", "--start-date", "2027-09-18", "--keywords", "wine,music")
        _ = try await run("events", "add", "--name", "Winter Fair", "--start-date", "2026-12-01", "--end-date", "2026-12-02")
        _ = try await run("events", "add", "--name", "Whenever")
        outcome = try await run("events", "list", "--from", "2027-01-01")
        #expect(outcome.output.split(separator: "\n").map { String($0.prefix { $0 != " " }) } == ["Harvest", "Whenever"])
        #expect(outcome.output.contains("2027-09-18 · keywords: wine, music"))
        outcome = try await run("events", "add", "--name", "Bad", "--start-date", "2027-02-30")
        #expect(outcome.status == 64 && outcome.error.contains("The value '2027-02-30' is invalid for '--start-date <start-date>'"))
        outcome = try await run("events", "add", "--name", "Backwards", "--start-date", "2027-02-02", "--end-date", "2027-02-01")
        #expect(outcome.status == 2 && outcome.error == "error: The event ends (2027-02-01) before it starts (2027-02-02)\n")

        outcome = try await run("routes", "add", "--name", "Loop", "--duration", "60", "--json")
        let route = try #require(try JSONSerialization.jsonObject(with: Data(outcome.output.utf8)) as? [String: Any])
        let routeID = try #require(route["id"] as? String)
        outcome = try await run("routes", "delete", routeID)
        #expect(outcome.status == 0 && outcome.output == "Deleted route \(routeID.lowercased()).\n")
        outcome = try await run("routes", "delete", routeID)
        #expect(outcome.status == 5 && outcome.error.hasPrefix("error: Route ") && outcome.error.hasSuffix(" was not found\n"))
        outcome = try await run("routes", "list")
        #expect(outcome.output == "No routes.\n")
        #expect(try await test.count("routes") == 1)

        outcome = try await run("logout")
        #expect(outcome.status == 0)
        outcome = try await run("check-in")
        #expect(outcome.status == 3)
    }
}

extension CommandLineTests {
    /// A command left running (`watch`), its output collected as it comes.
    struct Running: Sendable {
        let process: ChildProcess

        var collected: String { process.outputSoFar }

        /// Waits (up to 60 s: a bound against a hang, not a speed check) until the output contains `text`.
        func waitForOutput(containing text: String) async throws -> Bool {
            await process.output(containing: text).contains(text)
        }

        /// Waits for the process to exit, stopping it with SIGTERM after `seconds`.
        func finish(within seconds: Double) async throws -> Outcome {
            let result = await process.finish(within: .seconds(seconds), signal: SIGTERM)
            return Outcome(status: result.status, output: result.output, error: result.error)
        }
    }

    static func start(_ arguments: [String], server: TestServer, dataDirectory: URL) throws -> Running {
        Running(
            process: try ChildProcess(
                executable.path, arguments: arguments,
                environment: environment(server: server, dataDirectory: dataDirectory)))
    }
}
