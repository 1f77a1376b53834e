import Foundation
import LifeSignalTestSupport
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `lifesignal serve` as an operator starts it, as a child process: its data in a new folder
/// (an SQLite file there unless `database` names one), the environment given on top of this
/// process's, and its banner read once it is out (or the process ended before).
final class ServeProcess: Sendable {
    let process: ChildProcess
    let banner: String
    let data: URL

    init(
        _ arguments: [String] = [], environment extra: [String: String] = [:], port: Int = 0,
        sweepInterval: Int = 0, database: String? = nil
    ) async throws {
        let data = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: data, withIntermediateDirectories: true)
        var environment = ProcessInfo.processInfo.environment
        environment["LIFESIGNAL_DATA_DIR"] = data.path
        environment["LIFESIGNAL_DATABASE_URL"] = nil
        environment["LIFESIGNAL_TEST_OTP"] = nil
        for (name, value) in extra { environment[name] = value }
        process = try ChildProcess(
            CommandLineTests.executable.path,
            arguments: [
                "serve", "--port", "\(port)", "--sweep-interval", "\(sweepInterval)",
                "--database", database ?? data.appendingPathComponent("db.sqlite").path,
            ] + arguments,
            environment: environment, error: .null)
        self.data = data
        // A bound against a hang, not a speed check.
        banner = await process.output(containing: "Ctrl-C stops the server.", within: .seconds(120))
    }

    /// The URL of `test`'s PostgreSQL database, for a server process.
    static func postgresURL(of test: TestBackend) throws -> String {
        let name = try #require(test.backend.database.location.split(separator: "/").last)
        var components = try #require(URLComponents(string: ProcessInfo.processInfo.environment[TestDatabases.postgresURLVariable] ?? ""))
        components.path = "/" + name
        return try #require(components.string)
    }

    /// The value after `label` on its banner line.
    func value(_ label: String) -> String? { ServeCommandTests.value(label, in: banner) }

    var baseURL: String? {
        banner.components(separatedBy: "\n").first { $0.hasPrefix("LifeSignal is listening on ") }
            .map { String($0.dropFirst("LifeSignal is listening on ".count)) }
    }

    /// POSTs JSON with the banner's anon key (and `bearer`); the status and the JSON answer.
    func post(_ path: String, bearer: String? = nil, _ body: [String: Any]) async throws -> (Int, [String: Any]) {
        var request = URLRequest(url: try #require(URL(string: (baseURL ?? "") + path)))
        request.httpMethod = "POST"
        request.setValue(value("anon key:"), forHTTPHeaderField: "apikey")
        if let bearer { request.setValue("Bearer \(bearer)", forHTTPHeaderField: "Authorization") }
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("2024-01-01", forHTTPHeaderField: "X-Supabase-Api-Version")
        request.httpBody = try JSONSerialization.data(withJSONObject: body)
        request.timeoutInterval = 120
        let (data, response) = try await URLSession.shared.data(for: request)
        return ((response as? HTTPURLResponse)?.statusCode ?? 0, (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] ?? [:])
    }

    /// Stops the server as Ctrl-C does and waits for it; its exit status.
    @discardableResult
    func stop() async -> Int32 {
        process.send(SIGINT)
        let status = await process.finish(within: .seconds(60)).status
        try? FileManager.default.removeItem(at: data)
        return status
    }
}
