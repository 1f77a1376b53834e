import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Parsing the text fields of function replies; a reply that does not parse is the server's
/// fault, reported as ``DomainError/internal(_:)`` with the value kept.
enum WireParse {
    static func uuid(_ text: String) throws -> UUID {
        guard let id = UUID(uuidString: text) else { throw DomainError.internal("The server sent \"\(text)\" where an id belongs") }
        return id
    }

    static func userID(_ text: String) throws -> UserID { UserID(try uuid(text)) }

    static func date(_ text: String) throws -> Date {
        guard let date = Timestamp.parse(text) else { throw DomainError.internal("The server sent \"\(text)\" where a time belongs") }
        return date
    }

    static func date(_ text: String?) throws -> Date? { try text.map { try date($0) } }

    static func alertStatus(_ text: String) throws -> AlertStatus {
        guard let status = AlertStatus(rawValue: text) else { throw DomainError.internal("The server sent the alert status \"\(text)\"") }
        return status
    }
}
