import Foundation

/// A provider stand-in from `Tests/Compatibility` (aiosmtpd's SMTP server, the Twilio stand-in)
/// as a child process on 127.0.0.1, in the virtual environment `scripts/test` makes
/// (`LIFESIGNAL_TEST_PYTHON`). It prints `READY <port>`, then one JSON object per line for
/// each message or request it took.
public final class StandInProcess: @unchecked Sendable {
    public let port: Int
    /// The folder the script was given (the SMTP server writes its certificate there).
    public let directory: URL
    private let process: ChildProcess
    private let lock = NSLock()
    private var messages: [[String: Any]] = []
    private var delivered = 0

    public static func start(_ script: String, arguments: [String]) async throws -> StandInProcess {
        guard let python = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_PYTHON"], !python.isEmpty else {
            throw TestEnvironmentError(
                description: """
                    This test needs a Python provider stand-in, and LIFESIGNAL_TEST_PYTHON is not set. Run the tests with `scripts/test`, \
                    which makes the Python environment (Tests/Compatibility/requirements.txt).
                    """)
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Compatibility/\(script)")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-standin-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        // The input pipe stays open while the stand-in should run: it stops when its input closes,
        // so it cannot outlive a test process that died.
        let process = try ChildProcess(
            python, arguments: [script.path] + arguments.map { $0 == "{dir}" ? directory.path : $0 },
            input: .pipe, error: .inherit)
        let lines = process.outputLines
        var iterator = lines.makeAsyncIterator()
        // A stand-in that never says READY is killed after a minute, which ends its output and
        // so this wait: a bound against a hang, not a speed check.
        let watchdog = Task {
            try? await Task.sleep(for: .seconds(60))
            if !Task.isCancelled { process.send(SIGKILL) }
        }
        let first = await iterator.next()
        watchdog.cancel()
        guard let ready = first, ready.hasPrefix("READY "), let port = Int(ready.dropFirst(6)) else {
            process.send(SIGTERM)
            throw TestEnvironmentError(description: "the stand-in \(script) did not start")
        }
        let server = StandInProcess(port: port, process: process, directory: directory)
        Task { [iterator] in
            var iterator = iterator
            while let line = await iterator.next() {
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { continue }
                server.lock.withLock { server.messages.append(object) }
            }
        }
        return server
    }

    private init(port: Int, process: ChildProcess, directory: URL) {
        self.port = port
        self.process = process
        self.directory = directory
    }

    /// Records printed so far.
    public var messageCount: Int { lock.withLock { messages.count } }

    /// Every record printed so far, in order.
    public var records: [[String: Any]] { lock.withLock { messages } }

    /// The records matching `predicate` once there are at least `count` of them; a bound of
    /// `limit` against a hang (not a speed check).
    public func records(
        atLeast count: Int, limit: Duration = .seconds(120),
        where predicate: ([String: Any]) -> Bool
    ) async throws -> [[String: Any]] {
        let deadline = ContinuousClock.now + limit
        while true {
            let matching = records.filter(predicate)
            if matching.count >= count { return matching }
            guard ContinuousClock.now < deadline else {
                throw TestEnvironmentError(description: "\(matching.count) of \(count) records within \(limit): \(records)")
            }
            try await Task.sleep(for: .milliseconds(50))
        }
    }

    /// The next record not yet returned; a bound of 30 s against a hang.
    public func nextMessage() async throws -> [String: Any] {
        let deadline = ContinuousClock.now + .seconds(30)
        while ContinuousClock.now < deadline {
            let next: [String: Any]? = lock.withLock {
                guard delivered < messages.count else { return nil }
                delivered += 1
                return messages[delivered - 1]
            }
            if let next { return next }
            try await Task.sleep(for: .milliseconds(20))
        }
        throw TestEnvironmentError(description: "the stand-in printed nothing more within 30 s")
    }

    public func stop() {
        process.closeInput()
        process.send(SIGTERM)
        try? FileManager.default.removeItem(at: directory)
    }
}

/// `smtp_server.py` (aiosmtpd) in one of its modes.
public enum SMTPTestServer {
    public static func start(mode: String) async throws -> StandInProcess {
        try await StandInProcess.start("smtp_server.py", arguments: [mode, "{dir}"])
    }
}

extension StandInProcess {
    /// The SMTP server's self-signed certificate.
    public var certificatePath: String { directory.appendingPathComponent("cert.pem").path }
}
