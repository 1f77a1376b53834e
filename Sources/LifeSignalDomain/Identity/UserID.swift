import Foundation

/// The stable identifier of a person using LifeSignal.
///
/// It is the `sub` claim of the person's access token and the primary key of their row in
/// every backend, so it is a UUID everywhere (lower-case in text form, as PostgreSQL prints it).
public struct UserID: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: UUID

    public init(rawValue: UUID) { self.rawValue = rawValue }
    public init(_ rawValue: UUID) { self.rawValue = rawValue }

    /// Parses a UUID in any case; `nil` when the text is not a UUID.
    public init?(string: String) {
        guard let uuid = UUID(uuidString: string) else { return nil }
        self.rawValue = uuid
    }

    public var description: String { rawValue.uuidString.lowercased() }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let uuid = UUID(uuidString: text) else {
            throw DecodingError.dataCorrupted(
                .init(
                    codingPath: decoder.codingPath, debugDescription: "Not a UUID: \(text)"))
        }
        self.rawValue = uuid
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(description)
    }
}
