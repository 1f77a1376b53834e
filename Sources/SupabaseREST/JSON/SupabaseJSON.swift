import Foundation
import RFC3339

/// The JSON coders every service client uses, exposed so that callers decode the same way.
///
/// Dates decode from any ISO 8601 spelling the Supabase services emit (with or without
/// fractional seconds, `Z` or a numeric offset, or a bare `YYYY-MM-DD`), and encode as
/// `2024-06-05T12:00:00.000Z`. The encoder sorts keys: key order is not significant to the
/// servers, and a stable order makes bodies reproducible (Linux `JSONEncoder` otherwise
/// varies it from run to run).
public enum SupabaseJSON {
    /// A new decoder with the shared date rules.
    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let string = try container.decode(String.self)
            guard let date = RFC3339.parse(string, .lenient) else {
                throw DecodingError.dataCorruptedError(
                    in: container, debugDescription: "Invalid ISO 8601 date: \(string)")
            }
            return date
        }
        return decoder
    }

    /// A new encoder with ISO 8601 dates and sorted keys.
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .custom { date, encoder in
            var container = encoder.singleValueContainer()
            try container.encode(RFC3339.format(date, fractionDigits: 3, zone: .z))
        }
        return encoder
    }
}
