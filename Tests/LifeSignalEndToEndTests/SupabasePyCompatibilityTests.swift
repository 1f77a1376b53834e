import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The official Python client, unmodified, against a real `lifesignal` server on both engines.
///
/// `Tests/Compatibility/supabase_py_check.py` uses supabase-py (pinned in
/// `Tests/Compatibility/requirements.txt`, installed by `scripts/test` into a virtual
/// environment it exports as `LIFESIGNAL_TEST_PYTHON`) for phone sign-in, the seed-004 queries
/// on locations, events and routes, `functions.invoke("trigger-alert")` and a realtime
/// subscription. The script's `OK` lines are only its word: afterwards this test reads the
/// backend's database to prove the rows it wrote are there with the values it claimed.
@Suite("supabase-py against lifesignal serve")
struct SupabasePyCompatibilityTests {
    static let phone = "+15550001111"
    static let code = "123456"
    /// Every step the script reports, in order; a missing one means it stopped early.
    static let steps = [
        "sign-in",
        "locations create", "locations search and sort", "locations update", "locations soft delete",
        "routes create", "routes search and sort", "routes update", "routes soft delete",
        "events create", "events date range",
        "functions trigger-alert",
        "realtime insert",
        "sign-out",
    ]

    @Test("sign-in, seed-004 queries, trigger-alert and a realtime change, through supabase-py", arguments: Engine.allCases)
    func supabasePy(engine: Engine) async throws {
        let python = try PythonScript.interpreter()
        // supabase-py checks token expiry against the real clock, so the server's starts at now.
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "\(Self.phone)=\(Self.code)"), clock: ManualClock(Date()))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let tag = "py" + UUID().uuidString.prefix(8).lowercased()
        // The script writes content, which takes an editor (docs/security.md, "Content"): the
        // account is made one with the service role before the script signs in to it.
        _ = try await test.signInEditor(Self.phone)

        let run = try await PythonScript.run(
            python, PythonScript.check,
            arguments: [
                "--url", server.baseURL.absoluteString, "--anon-key", server.anonKey,
                "--phone", Self.phone, "--code", Self.code, "--tag", tag, "--timeout", "30",
            ],
            timeout: .seconds(240))
        #expect(!run.timedOut, "supabase_py_check.py was stopped after 240 s\n\(run.transcript)")
        #expect(run.status == 0, "supabase_py_check.py exited with \(run.status)\n\(run.transcript)")
        let reported = run.stdout.split(separator: "\n").filter { $0.hasPrefix("OK ") }.map { String($0.dropFirst(3)) }
        #expect(reported == Self.steps, "steps reported by supabase_py_check.py\n\(run.transcript)")
        guard run.status == 0 else { return }

        try await Self.checkEffects(of: test, tag: tag, scriptOutput: run.stdout)
    }

    /// What the script did, read back through the backend's own database.
    static func checkEffects(of test: TestBackend, tag: String, scriptOutput: String) async throws {
        let database = test.backend.database
        let digits = String(phone.dropFirst())
        let user = try #require(try await database.query("SELECT id FROM auth_users WHERE phone = \(digits)").first).uuid("id")
        #expect(scriptOutput.contains("  user \(user.uuidString.lowercased())"), "the script signed in as someone else")
        let label = { (name: String) in "\(name) \(tag.uppercased())" }

        func rows(_ table: String) async throws -> [String: SQLRow] {
            let found = try await database.query(
                SQL(
                    """
                    SELECT name, slug, status, sort_order, created_by, deleted_at FROM \(table) WHERE slug LIKE $1
                    """, bindings: [.text("%-\(tag)")]))
            #expect(found.allSatisfy { $0.optionalUUID("created_by") == user }, "\(table) rows not created by the signed-in user")
            return Dictionary(found.map { ($0.optionalString("slug") ?? "", $0) }, uniquingKeysWith: { first, _ in first })
        }

        // Locations: four made, the first renamed and published, the second soft-deleted, and
        // one more inserted by the async client for the realtime step.
        let locations = try await rows("locations")
        #expect(locations.count == 5, "locations: \(locations.keys.sorted())")
        let renamed = try #require(locations["paris-vineyard-\(tag)"])
        #expect(renamed.optionalString("name") == label("Paris Vineyard") + " (renamed)")
        #expect(renamed.optionalString("status") == "published")
        #expect(renamed.optionalInt("sort_order") == 7)
        #expect(renamed.optionalDate("deleted_at") == nil)
        let softDeleted = try #require(locations["amador-flower-farm-\(tag)"])
        let deletedAt = try #require(softDeleted.optionalDate("deleted_at"), "the soft-deleted location has no deleted_at")
        #expect(abs(deletedAt.timeIntervalSinceNow) < 600, "deleted_at \(deletedAt) is not the time of the run")
        #expect(softDeleted.optionalString("name") == label("Amador Flower Farm"))
        for kept in ["old-paris-road", "sutter-creek", "realtime-barn"] {
            let row = try #require(locations["\(kept)-\(tag)"], "location \(kept) is missing")
            #expect(row.optionalDate("deleted_at") == nil, "\(kept) was deleted")
            #expect(row.optionalString("status") == "draft", "\(kept)")
        }
        #expect(locations["realtime-barn-\(tag)"]?.optionalInt("sort_order") == 3)

        let routes = try await rows("routes")
        #expect(routes.count == 3, "routes: \(routes.keys.sorted())")
        #expect(routes["paris-loop-\(tag)"]?.optionalString("status") == "published")
        #expect(routes["paris-loop-\(tag)"]?.optionalString("name") == label("Paris Loop") + " (renamed)")
        #expect(routes["creek-walk-\(tag)"]?.optionalDate("deleted_at") != nil, "the soft-deleted route has no deleted_at")
        #expect(routes["ridge-paris-trail-\(tag)"]?.optionalDate("deleted_at") == nil)
        let route = try #require(
            try await database.query(
                SQL(
                    "SELECT difficulty, duration_minutes FROM routes WHERE slug = $1", bindings: [.text("ridge-paris-trail-\(tag)")])
            ).first)
        #expect(route.optionalString("difficulty") == "moderate")
        #expect(route.optionalInt("duration_minutes") == 90)

        let events = try await rows("events")
        #expect(events.count == 5, "events: \(events.keys.sorted())")
        #expect(events["past-\(tag)"]?.optionalDate("deleted_at") != nil, "the soft-deleted event has no deleted_at")
        #expect(events["june-\(tag)"]?.optionalString("status") == "archived")
        let june = try #require(
            try await database.query(
                SQL(
                    "SELECT CAST(start_date AS text) AS start_date, CAST(end_date AS text) AS end_date FROM events WHERE slug = $1",
                    bindings: [.text("june-\(tag)")])
            ).first)
        #expect(june.optionalString("start_date") == "2024-06-10")
        #expect(june.optionalString("end_date") == "2024-06-12")
        let undated = try #require(
            try await database.query(
                SQL(
                    "SELECT start_date, end_date, host_org FROM events WHERE slug = $1", bindings: [.text("undated-\(tag)")])
            ).first)
        #expect(undated["start_date"] == .null && undated["end_date"] == .null)
        #expect(undated.optionalString("host_org") == "Fiddletown")

        // trigger-alert raised one alert, and cancel-alert resolved it.
        let alerts = try await database.query("SELECT status, resolved_at FROM alerts WHERE user_id = \(SQLValue.uuid(user))")
        #expect(alerts.count == 1, "alerts for the user: \(alerts.count)")
        #expect(alerts.first?.optionalString("status") == "resolved")
        #expect(alerts.first?.optionalDate("resolved_at") != nil)
    }
}

/// The environment lacks the interpreter or script: the test fails with this, it never skips.
struct MissingPython: Error, CustomStringConvertible {
    let description: String
}

/// Runs `supabase_py_check.py` with the interpreter `scripts/test` prepared.
enum PythonScript {
    static let interpreterVariable = "LIFESIGNAL_TEST_PYTHON"

    /// `Tests/Compatibility/supabase_py_check.py`, found from this file's place in the package.
    static var check: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Compatibility/supabase_py_check.py")
    }

    /// The venv's interpreter. Missing is a failure, never a skip: the compatibility claim
    /// would otherwise pass untested.
    static func interpreter() throws -> URL {
        let environment = ProcessInfo.processInfo.environment
        guard let path = environment[interpreterVariable], !path.isEmpty else {
            throw MissingPython(
                description: """
                    This test runs supabase-py, and \(interpreterVariable) is not set. Run the tests with \
                    `scripts/test`, which installs the pinned supabase package into .build/python-venv \
                    (Tests/Compatibility/python-venv) and exports \(interpreterVariable)=<venv>/bin/python.
                    """)
        }
        guard FileManager.default.isExecutableFile(atPath: path) else {
            throw MissingPython(
                description: """
                    \(interpreterVariable) is \(path), which is not an executable file. \
                    Recreate the venv with `Tests/Compatibility/python-venv` (or run `scripts/test`).
                    """)
        }
        guard FileManager.default.fileExists(atPath: check.path) else {
            throw MissingPython(description: "the compatibility script is missing at \(check.path)")
        }
        return URL(fileURLWithPath: path)
    }

    struct Outcome: Sendable {
        let status: Int32
        let timedOut: Bool
        let stdout: String
        let stderr: String

        /// Everything the script said, for a failure message.
        var transcript: String { "--- stdout\n\(stdout)--- stderr\n\(stderr)---" }
    }

    /// Runs `script` to completion, or kills it after `timeout`. Output is read on
    /// dedicated threads, not the cooperative pool the server under test runs on.
    static func run(_ python: URL, _ script: URL, arguments: [String], timeout: Duration) async throws -> Outcome {
        var environment = ProcessInfo.processInfo.environment
        environment["PYTHONDONTWRITEBYTECODE"] = "1"
        let result = try await ChildProcess.run(
            python.path, arguments: ["-u", script.path] + arguments,
            environment: environment, within: timeout)
        return Outcome(status: result.status, timedOut: result.timedOut, stdout: result.output, stderr: result.error)
    }
}
