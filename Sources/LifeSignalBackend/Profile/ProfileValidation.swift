import Foundation
import LifeSignalDomain

/// Rules about profile fields that need no I/O.
///
/// They live here rather than in `LifeSignalDomain/User` only because that file belongs to
/// another part of the project; they are pure and could move there unchanged.
enum ProfileValidation {
    static let nameLength = 2...50
    static let maximumNoteLength = 1000
    static let maximumAvatarURLLength = 2048

    /// A first or last name: 2–50 letters, spaces, hyphens or apostrophes, trimmed.
    static func name(_ text: String, field: String) throws(DomainError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLength.contains(trimmed.count) else {
            throw .invalidArgument("\(field) must be 2 to 50 characters, not \(trimmed.count)")
        }
        guard trimmed.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" || $0 == "'" || $0 == "’" }) else {
            throw .invalidArgument("\(field) may hold letters, spaces, hyphens and apostrophes only")
        }
        return trimmed
    }

    static func note(_ text: String) throws(DomainError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= maximumNoteLength else {
            throw .invalidArgument("The emergency note is at most \(maximumNoteLength) characters")
        }
        return trimmed
    }

    /// An http(s) URL, or empty to remove the avatar (`nil` result).
    static func avatarURL(_ text: String) throws(DomainError) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        guard trimmed.count <= maximumAvatarURLLength, let url = URL(string: trimmed),
              let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host?.isEmpty == false
        else { throw .invalidArgument("The avatar must be an http(s) URL of at most \(maximumAvatarURLLength) characters") }
        return trimmed
    }
}
