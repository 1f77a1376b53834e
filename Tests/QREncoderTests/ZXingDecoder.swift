import Foundation
import LifeSignalTestSupport

/// zxing-cpp, an independent QR code reader, through `Tests/Compatibility/qr_decode.py` in the
/// Python environment `scripts/test` makes (`LIFESIGNAL_TEST_PYTHON`).
enum ZXingDecoder {
    /// What zxing-cpp found in one image.
    struct Image: Decodable, Sendable {
        let file: String
        let codes: [Symbol]?
        let error: String?
    }

    /// One decoded symbol: its bytes in hex, and what the reader saw of its structure.
    struct Symbol: Decodable, Sendable {
        let hex: String
        let version: Int?
        let ecLevel: String?
        let mask: Int?
        /// The share of the error correction zxing-cpp did not need: 1 when every codeword
        /// read as written.
        let unusedErrorCorrection: Double?
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    static let interpreterVariable = "LIFESIGNAL_TEST_PYTHON"

    /// The interpreter of the environment `scripts/test` makes. Missing, the test fails (it
    /// never skips): an encoder no independent reader checked is not tested.
    static func python() throws -> String {
        guard let python = ProcessInfo.processInfo.environment[interpreterVariable], !python.isEmpty else {
            throw Failure(
                description: """
                    This test decodes QR codes with zxing-cpp, and \(interpreterVariable) is not set. Run the tests with \
                    `scripts/test`, which makes the Python environment (Tests/Compatibility/requirements.txt).
                    """)
        }
        return python
    }

    static var script: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Compatibility/qr_decode.py")
    }

    /// Writes each image (PGM bytes) to a temporary folder and decodes them all in one Python
    /// process: starting Python and zxing-cpp costs more than a decode. The results are in
    /// the images' order.
    static func decode(_ images: [[UInt8]], python: String) async throws -> [Image] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lifesignal-qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var paths: [String] = []
        for (index, image) in images.enumerated() {
            let file = folder.appendingPathComponent(String(format: "code-%04d.pgm", index))
            try Data(image).write(to: file)
            paths.append(file.path)
        }
        // ChildProcess rather than Foundation's Process: see its documentation (a crash in
        // Process.run on Linux).
        let result = try await ChildProcess.run(python, arguments: [script.path] + paths, within: .seconds(300))
        guard result.status == 0, !result.timedOut else {
            throw Failure(description: "qr_decode.py ended with status \(result.status)\(result.timedOut ? " (timed out)" : ""): \(result.error)")
        }
        let decoder = JSONDecoder()
        let lines = result.output.split(separator: "\n", omittingEmptySubsequences: true)
        let decoded = try lines.map { try decoder.decode(Image.self, from: Data($0.utf8)) }
        guard decoded.map(\.file) == paths else {
            throw Failure(description: "qr_decode.py answered for \(decoded.count) of \(paths.count) images, or out of order: \(result.error)")
        }
        return decoded
    }

    /// Lowercase hex, as the script prints bytes.
    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xF)]] })
    }
}
