import Foundation

/// Runs a Playwright script from `Tests/Compatibility` in the virtual environment `scripts/test`
/// makes (`LIFESIGNAL_TEST_PYTHON`), against `/usr/bin/chromium`; fails loudly when either is
/// missing rather than skipping.
public enum BrowserCheck {
    public struct Run: Sendable {
        public let status: Int32
        public let output: String
    }

    public static let chromium = "/usr/bin/chromium"

    public static func run(_ script: String, _ arguments: [String]) async throws -> Run {
        guard let python = ProcessInfo.processInfo.environment["LIFESIGNAL_TEST_PYTHON"], !python.isEmpty else {
            throw TestEnvironmentError(
                description: """
                    This test drives Chromium with Playwright, and LIFESIGNAL_TEST_PYTHON is not set. Run the tests with \
                    `scripts/test`, which makes the Python environment (Tests/Compatibility/requirements.txt) and installs Chromium.
                    """)
        }
        guard FileManager.default.isExecutableFile(atPath: chromium) else {
            throw TestEnvironmentError(
                description: "\(chromium) is missing: run `scripts/test` (it installs Debian's chromium) or `apt-get install -y chromium`")
        }
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Compatibility/\(script)").path
        // A bound against a hang, not a speed check: a cold Chromium on a loaded two-core
        // machine has taken tens of seconds to start.
        let process = try ChildProcess(python, arguments: [path] + arguments, error: .capture)
        let result = await process.finish(within: .seconds(300), signal: SIGTERM)
        return Run(status: result.status, output: result.output + result.error)
    }
}
