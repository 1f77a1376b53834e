import Foundation
import LifeSignalBackend
import LifeSignalTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// Where `serve` runs its Swift Concurrency tasks: on NIO's event loops through
/// `EventLoopConcurrencyExecutor` (PostgreSQL's default), or on Swift's own pool (SQLite's).
/// The executor is process-wide and installed before anything else runs, so only a server
/// process shows it: every request, timer and background task of that process runs on it.
@Suite("serve: where its tasks run")
struct ServeExecutorTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let engine: Engine
        /// `LIFESIGNAL_EVENT_LOOP_EXECUTOR`, when set.
        let choice: String?
        let onEventLoops: Bool
        var testDescription: String { "\(engine)\(choice.map { ", LIFESIGNAL_EVENT_LOOP_EXECUTOR=\($0)" } ?? "")" }
    }

    @Test(
        "the banner says where tasks run; on either, 200 concurrent reads are each answered in full and Ctrl-C stops it cleanly",
        arguments: [
            Case(engine: .postgres, choice: nil, onEventLoops: true), Case(engine: .sqlite, choice: nil, onEventLoops: false),
            Case(engine: .postgres, choice: "0", onEventLoops: false), Case(engine: .sqlite, choice: "1", onEventLoops: true),
        ])
    func concurrentReads(_ setup: Case) async throws {
        let test = try await TestDatabases.backend(setup.engine)
        let names = ["Harbour", "Library", "Station"]
        for (index, name) in names.enumerated() {
            _ = try await test.backend.database.query(
                "INSERT INTO locations (name, slug, sort_order, status) VALUES (\(name), \(name.lowercased()), \(index), 'published')"
            )
        }
        let database = setup.engine == .postgres ? try ServeProcess.postgresURL(of: test) : test.backend.database.location
        let serve = try await ServeProcess(
            environment: setup.choice.map { ["LIFESIGNAL_EVENT_LOOP_EXECUTOR": $0] } ?? [:], database: database)
        defer { Task { await serve.stop() } }
        #expect(serve.value("tasks:") == (setup.onEventLoops ? "on NIO's event loops" : "on Swift's thread pool"), "banner: \(serve.banner)")

        let url = try #require(URL(string: (serve.baseURL ?? "") + "/rest/v1/locations?select=name&order=sort_order.asc"))
        let key = try #require(serve.value("anon key:"))
        // A failed request is an answer of status 0, not a thrown error: a throw would cancel the
        // others inside `URLSession.data(for:)`, which can deadlock FoundationNetworking on Linux
        // (DatabaseOutageTests' ReadyProbe).
        let answers = await withTaskGroup(of: (Int, [String]).self) { group in
            for _ in 0..<200 {
                group.addTask {
                    var request = URLRequest(url: url)
                    request.setValue(key, forHTTPHeaderField: "apikey")
                    request.timeoutInterval = 120
                    guard let (data, response) = try? await URLSession.shared.data(for: request) else { return (0, []) }
                    let rows = (try? JSONSerialization.jsonObject(with: data)) as? [[String: Any]] ?? []
                    return ((response as? HTTPURLResponse)?.statusCode ?? 0, rows.compactMap { $0["name"] as? String })
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 200)
        #expect(answers.allSatisfy { $0.0 == 200 && $0.1 == names }, "\(answers.filter { $0.0 != 200 || $0.1 != names }.prefix(3))")
        #expect(await serve.stop() == 0, "SIGINT stops the server cleanly")
    }
}
