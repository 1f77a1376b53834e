import Foundation
import LifeSignalDomain

/// The server's limits on profile fields (``ProfileRules``), checked on the device before any
/// request and worded for the person looking at the field: a mistake is explained at once and
/// costs no round trip. The limits come from the one definition, so they cannot drift.
enum ProfileFieldRules {
    static let nameLength = ProfileRules.nameLength
    static let maximumNoteLength = ProfileRules.maximumNoteLength

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
        guard trimmed.allSatisfy(ProfileRules.allowsInName) else {
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
