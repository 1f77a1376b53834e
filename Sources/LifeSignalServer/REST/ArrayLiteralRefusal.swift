import Foundation
import LifeSignalBackend

/// The server's side of ``ArrayLiteral``: PostgreSQL's error for a malformed literal, and the
/// JSON array SQLite stores.
enum ArrayLiteralRefusal {
    /// PostgreSQL's refusal of a value that is not an array literal.
    static func malformed(_ text: String, detail: String? = nil) -> RESTError {
        let why =
            detail
            ?? (text.trimmingCharacters(in: .whitespaces).hasPrefix("{")
                ? "Unexpected end of input or misplaced character."
                : "Array value must start with \"{\" or dimension information.")
        return RESTError(status: .badRequest, code: .invalidTextRepresentation, message: "malformed array literal: \"\(text)\"", details: why)
    }

    /// Elements as the JSON array SQLite stores.
    static func json(_ elements: [String?]) -> String {
        "[" + elements.map { $0.map(JSONRenderer.quote) ?? "null" }.joined(separator: ",") + "]"
    }
}
