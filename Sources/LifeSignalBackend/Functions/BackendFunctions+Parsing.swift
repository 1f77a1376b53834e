import Foundation
import LifeSignalDomain

extension BackendFunctions {
    /// A UUID field of a request; anything else is ``DomainError/invalidArgument(_:)`` (the
    /// scanner and the wire both reject non-UUIDs before any lookup).
    static func uuid(_ text: String, field: String) throws(DomainError) -> UUID {
        guard text.count <= 36, let id = UUID(uuidString: text) else {
            throw .invalidArgument("\(field) must be a UUID, not \"\(text.prefix(40))\"")
        }
        return id
    }

    static func userID(_ text: String, field: String) throws(DomainError) -> UserID {
        UserID(try uuid(text, field: field))
    }

    static func time(_ date: Date?) -> String? { date.map(Timestamp.format) }
}

/// `{"success": true}`, the reply of functions that return nothing else.
public struct SuccessResponse: Codable, Sendable, Hashable {
    public var success: Bool
    public init(success: Bool = true) { self.success = success }
}
