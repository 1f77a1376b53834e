import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// A person's display name: first and last name, or the phone number before onboarding.
enum PersonName {
    static func display(_ row: SQLRow) -> String { display(row, prefix: "") }

    /// The same from columns named `<prefix>first_name`, `<prefix>last_name`, `<prefix>phone`
    /// (a statement that joins two people).
    static func display(_ row: SQLRow, prefix: String) -> String {
        let name = [row.optionalString(prefix + "first_name"), row.optionalString(prefix + "last_name")]
            .compactMap { $0 }.filter { !$0.isEmpty }.joined(separator: " ")
        return name.isEmpty ? (row.optionalString(prefix + "phone") ?? "Someone") : name
    }

    /// The name as it may appear in a message, which can leave by SMS or email: a name is the
    /// person's own words, so a message must not carry a link, a number or an address in it
    /// ("WIN A PRIZE call 0900…", "Visit evil.example"). Only letters, marks, spaces,
    /// apostrophes and hyphens are kept (dots go, so no domain survives), runs of space fold,
    /// and it is cut at a word to ``messageLimit`` characters. A person without a name is
    /// "Your contact", never their phone number.
    static func inMessage(_ row: SQLRow) -> String { inMessage(row, prefix: "") }

    static func inMessage(_ row: SQLRow, prefix: String) -> String {
        let name = [row.optionalString(prefix + "first_name"), row.optionalString(prefix + "last_name")]
            .compactMap { $0 }.joined(separator: " ")
        return sanitized(name) ?? "Your contact"
    }

    static let messageLimit = 32

    /// `text` with only what a name needs, or `nil` when nothing is left.
    static func sanitized(_ text: String) -> String? {
        let kept = text.unicodeScalars.map { scalar -> Character in
            let allowed =
                CharacterSet.letters.contains(scalar) || CharacterSet.nonBaseCharacters.contains(scalar) || scalar == "'" || scalar == "-"
                || scalar == "\u{2019}"
            return allowed ? Character(scalar) : " "
        }
        var words = String(kept).split(whereSeparator: \.isWhitespace).map(String.init)
        words = words.filter { $0.contains { $0.isLetter } }
        var result = ""
        for word in words {
            let next = result.isEmpty ? word : result + " " + word
            if next.count > messageLimit {
                if result.isEmpty { result = String(word.prefix(messageLimit)) }
                break
            }
            result = next
        }
        return result.isEmpty ? nil : result
    }
}
