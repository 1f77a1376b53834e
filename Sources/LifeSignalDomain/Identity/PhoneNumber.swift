/// A phone number in E.164 form: `+`, a country code that does not start with 0, and 7 to 15
/// digits in all.
///
/// Spaces, dashes, dots and parentheses that people type are dropped before the check, so
/// `+1 (555) 000-1111` and `+15550001111` are the same number. Anything else is refused with
/// ``DomainError/invalidPhone`` rather than guessed at: a wrong number would send a person's
/// sign-in code, or their emergency, to a stranger.
public struct PhoneNumber: Hashable, Codable, Sendable, CustomStringConvertible {
    /// The canonical form, `+` followed by digits only.
    public let e164: String

    public static let minimumDigits = 7
    public static let maximumDigits = 15

    public init(_ text: String) throws(DomainError) {
        let trimmed = text.filter { !" -.()\u{00A0}".contains($0) }
        guard trimmed.hasPrefix("+") else { throw .invalidPhone(text) }
        let digits = trimmed.dropFirst()
        guard digits.allSatisfy({ $0.isASCII && $0.isNumber }),
            (Self.minimumDigits...Self.maximumDigits).contains(digits.count),
            digits.first != "0"
        else { throw .invalidPhone(text) }
        self.e164 = String(trimmed)
    }

    /// The digits without the leading `+`, as GoTrue stores and returns phone numbers.
    public var digits: String { String(e164.dropFirst()) }

    public var description: String { e164 }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        do { try self.init(text.hasPrefix("+") ? text : "+" + text) } catch {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: error.message))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(e164)
    }
}
