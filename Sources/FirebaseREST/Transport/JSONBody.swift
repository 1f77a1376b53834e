import Foundation

/// JSON encoding shared by every client: sorted keys so request bodies are byte-stable
/// (`JSONEncoder`'s key order is not stable on Linux otherwise).
func encodeJSONBody<T: Encodable>(_ value: T) throws -> Data {
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    return try encoder.encode(value)
}
