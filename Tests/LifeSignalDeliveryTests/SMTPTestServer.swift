import Foundation

/// `Tests/Compatibility/smtp_server.py` (aiosmtpd) as a child process on 127.0.0.1, in the
/// virtual environment `scripts/test` makes (`LIFESIGNAL_TEST_PYTHON`). Each message it
/// accepts arrives as one JSON object.
final class SMTPTestServer: @unchecked Sendable {
    let port: Int
    let certificatePath: String
    private let process: Process
    private let input: Pipe
    private let directory: URL
    private let lock = NSLock()
    private var messages: [[String: Any]] = []
    private var delivered = 0

    struct Failure: Error, CustomStringConvertible { let description: String }

    static func start(mode: String) async throws -> SMTPTestServer {
        guard let python = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_PYTHON"], !python.isEmpty else {
            throw Failure(description: """
                This test needs aiosmtpd, and LIFESIGNAL_TEST_PYTHON is not set. Run the tests with `scripts/test`, \
                which makes the Python environment (Tests/Compatibility/requirements.txt).
                """)
        }
        let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Compatibility/smtp_server.py")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-smtp-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: python)
        process.arguments = [script.path, mode, directory.path]
        let output = Pipe(), input = Pipe()
        process.standardOutput = output
        process.standardInput = input
        process.standardError = FileHandle.standardError
        try process.run()
        let lines = AsyncStream<String> { continuation in
            // Blocking reads stay off the cooperative pool.
            DispatchQueue.global().async {
                var buffer = Data()
                while true {
                    let chunk = output.fileHandleForReading.availableData
                    if chunk.isEmpty { break }
                    buffer.append(chunk)
                    while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
                        continuation.yield(String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self))
                        buffer.removeSubrange(buffer.startIndex...newline)
                    }
                }
                continuation.finish()
            }
        }
        var iterator = lines.makeAsyncIterator()
        guard let ready = await iterator.next(), ready.hasPrefix("READY "), let port = Int(ready.dropFirst(6)) else {
            process.terminate()
            throw Failure(description: "the SMTP test server did not start (mode \(mode))")
        }
        let server = SMTPTestServer(port: port, certificatePath: directory.appendingPathComponent("cert.pem").path,
                                    process: process, input: input, directory: directory)
        Task { [iterator] in
            var iterator = iterator
            while let line = await iterator.next() {
                guard let object = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] else { continue }
                server.lock.withLock { server.messages.append(object) }
            }
        }
        return server
    }

    private init(port: Int, certificatePath: String, process: Process, input: Pipe, directory: URL) {
        self.port = port
        self.certificatePath = certificatePath
        self.process = process
        self.input = input
        self.directory = directory
    }

    /// Messages the server accepted so far.
    var messageCount: Int { lock.withLock { messages.count } }

    /// The next accepted message not yet returned; a bound of 30 s against a hang.
    func nextMessage() async throws -> [String: Any] {
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
        throw Failure(description: "the SMTP test server received no message within 30 s")
    }

    func stop() {
        try? input.fileHandleForWriting.close()
        if process.isRunning { process.terminate() }
        try? FileManager.default.removeItem(at: directory)
    }
}
