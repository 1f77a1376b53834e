import Foundation
import LifeSignalDomain

/// The limits the backend puts on profile fields (`ProfileValidation` in `LifeSignalBackend`),
/// checked on the device before any request.
///
/// They are mirrored rather than shared because the backend's rules are internal to the server
/// module, which the app does not link. Checking here means a mistake is explained at once, in
/// words about the field the person is looking at, and costs no round trip; the server still
/// checks the same limits, so a copy that drifted could only make the app stricter or looser
/// in what it *explains*, never in what is stored.
enum ProfileFieldRules {
    static let nameLength = 2...50
    static let maximumNoteLength = 1000

    /// The first name, trimmed; it is required.
    static func firstName(_ text: String) throws(DomainError) -> String {
        let trimmed = trim(text)
        guard !trimmed.isEmpty else { throw .invalidArgument("Enter your first name") }
        return try name(trimmed, field: "First name")
    }

    /// The last name, trimmed, or `nil` when left empty: it is optional.
    static func optionalLastName(_ text: String) throws(DomainError) -> String? {
        let trimmed = trim(text)
        return trimmed.isEmpty ? nil : try name(trimmed, field: "Last name")
    }

    /// A name that is already trimmed: 2–50 letters, spaces, hyphens or apostrophes.
    static func name(_ trimmed: String, field: String) throws(DomainError) -> String {
        guard nameLength.contains(trimmed.count) else {
            let (shortest, longest) = (nameLength.lowerBound, nameLength.upperBound)
            throw .invalidArgument("\(field) must be \(shortest) to \(longest) characters long (this one has \(trimmed.count))")
        }
        guard trimmed.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" || $0 == "'" || $0 == "’" }) else {
            throw .invalidArgument("\(field) may contain only letters, spaces, hyphens and apostrophes")
        }
        return trimmed
    }

    /// The emergency note, trimmed; empty is allowed and means "no note".
    static func note(_ text: String) throws(DomainError) -> String {
        let trimmed = trim(text)
        guard trimmed.count <= maximumNoteLength else {
            throw .invalidArgument(
                "The emergency note can be at most \(maximumNoteLength) characters (this one has \(trimmed.count))")
        }
        return trimmed
    }

    static func trim(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
