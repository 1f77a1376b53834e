import Foundation
import LifeSignalDomain

/// How the functions read the fields of a request and write the times of a reply, in one
/// place for the backend that serves them and the requests that build them.
///
/// A field that does not parse is the caller's mistake: ``DomainError/invalidArgument(_:)``
/// naming the field and (at most 40 characters of) what was sent, so a huge value is not
/// echoed back.
public enum WireField {
    /// A UUID field; anything else is refused before any lookup.
    public static func uuid(_ text: String, field: String) throws(DomainError) -> UUID {
        guard text.count <= 36, let id = UUID(uuidString: text) else {
            throw .invalidArgument("\(field) must be a UUID, not \"\(text.prefix(40))\"")
        }
        return id
    }

    public static func userID(_ text: String, field: String) throws(DomainError) -> UserID {
        UserID(try uuid(text, field: field))
    }

    /// A content status (`draft`, `published`, `archived`), or `nil` when left out.
    public static func status(_ text: String?) throws(DomainError) -> ContentStatus? {
        guard let text else { return nil }
        guard let status = ContentStatus(rawValue: text) else {
            throw .invalidArgument("status must be one of draft, published, archived, not \"\(text.prefix(40))\"")
        }
        return status
    }

    /// A calendar day in `YYYY-MM-DD` form.
    public static func day(_ text: String, field: String) throws(DomainError) -> CalendarDay {
        do { return try CalendarDay(text) } catch { throw .invalidArgument("\(field): \"\(text.prefix(40))\" is not a day in YYYY-MM-DD form") }
    }

    /// A reply's optional time, in ``Timestamp`` form.
    public static func time(_ date: Date?) -> String? { date.map(Timestamp.format) }
}
