import Foundation

/// The limits on profile fields, one definition for the server that enforces them and the
/// screens that explain them before a request is made.
public enum ProfileRules {
    public static let nameLength = 2...50
    public static let maximumNoteLength = 1000
    public static let maximumAvatarURLLength = 2048

    /// Letters, spaces, hyphens and apostrophes (straight or typographic).
    public static func allowsInName(_ character: Character) -> Bool {
        character.isLetter || character == " " || character == "-" || character == "'" || character == "’"
    }

    /// A first or last name: 2–50 letters, spaces, hyphens or apostrophes, trimmed.
    public static func name(_ text: String, field: String) throws(DomainError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard nameLength.contains(trimmed.count) else {
            throw .invalidArgument("\(field) must be 2 to 50 characters, not \(trimmed.count)")
        }
        guard trimmed.allSatisfy(allowsInName) else {
            throw .invalidArgument("\(field) may hold letters, spaces, hyphens and apostrophes only")
        }
        return trimmed
    }

    public static func note(_ text: String) throws(DomainError) -> String {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= maximumNoteLength else {
            throw .invalidArgument("The emergency note is at most \(maximumNoteLength) characters")
        }
        return trimmed
    }

    /// An http(s) URL, or empty to remove the avatar (`nil` result).
    public static func avatarURL(_ text: String) throws(DomainError) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        if trimmed.isEmpty { return nil }
        guard trimmed.count <= maximumAvatarURLLength, let url = URL(string: trimmed),
            let scheme = url.scheme?.lowercased(), scheme == "https" || scheme == "http", url.host?.isEmpty == false
        else { throw .invalidArgument("The avatar must be an http(s) URL of at most \(maximumAvatarURLLength) characters") }
        return trimmed
    }
}
