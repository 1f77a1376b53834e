import Foundation
import Hummingbird
import NIOCore

/// An `application/x-www-form-urlencoded` body: what every form of the pages posts.
public struct FormBody: Sendable, Hashable {
    /// The fields in order; a name may repeat (checkboxes).
    public let fields: [(name: String, value: String)]

    public init(_ text: String) {
        var fields: [(String, String)] = []
        for pair in text.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard let name = Self.decode(parts[0]) else { continue }
            fields.append((name, parts.count == 2 ? Self.decode(parts[1]) ?? "" : ""))
        }
        self.fields = fields
    }

    /// The first value of `name`, trimmed of surrounding white space.
    public subscript(_ name: String) -> String? {
        fields.first { $0.name == name }?.value.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    /// Every value of `name`.
    public func all(_ name: String) -> [String] { fields.filter { $0.name == name }.map(\.value) }

    /// Reads a form body of at most `limit` bytes; a larger one is ``FormBody/Failure/tooLarge``.
    public static func read(_ request: Request, limit: Int = 8 * 1024) async throws(Failure) -> FormBody {
        do { return FormBody(String(buffer: try await request.body.collect(upTo: limit))) } catch { throw .tooLarge }
    }

    public enum Failure: Error, Sendable { case tooLarge }

    private static func decode(_ text: Substring) -> String? {
        String(text).replacingOccurrences(of: "+", with: " ").removingPercentEncoding
    }

    public static func == (lhs: FormBody, rhs: FormBody) -> Bool {
        lhs.fields.map(\.name) == rhs.fields.map(\.name) && lhs.fields.map(\.value) == rhs.fields.map(\.value)
    }

    public func hash(into hasher: inout Hasher) {
        for field in fields {
            hasher.combine(field.name)
            hasher.combine(field.value)
        }
    }
}
