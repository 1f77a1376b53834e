import Foundation

/// What a text message to the server's number asks for, read loosely: people write "ok",
/// "OK!", "I'm fine" or "👍", and a flip phone may add a signature.
///
/// The carrier keywords are matched as carriers match them (the whole message, any case,
/// surrounding spaces and punctuation ignored): `STOP` and its synonyms end every message to
/// the number, `START` and its synonyms undo that, `HELP`/`INFO` ask what this is. Anything
/// else is a check-in when its first words say the person is fine, and unclear otherwise.
public enum SMSReply: Equatable, Sendable {
    case stop
    case start
    case help
    case checkIn
    case unclear

    /// The opt-out words US carriers and Twilio honour.
    public static let stopWords: Set<String> = ["stop", "stopall", "stop all", "unsubscribe", "cancel", "end", "quit", "optout", "opt out", "revoke"]
    public static let startWords: Set<String> = ["start", "unstop", "yes", "subscribe"]
    public static let helpWords: Set<String> = ["help", "info"]
    /// Phrases that mean "I am fine" when they open the message.
    static let fineOpenings: [[String]] = [
        ["ok"], ["okay"], ["k"], ["fine"], ["safe"], ["good"], ["here"], ["yep"], ["yup"], ["checking", "in"], ["check", "in"],
        ["checkin"], ["im", "ok"], ["im", "okay"], ["im", "fine"], ["im", "safe"], ["i", "am", "ok"], ["i", "am", "okay"],
        ["i", "am", "fine"], ["i", "am", "safe"], ["all", "good"], ["all", "ok"], ["all", "fine"],
    ]

    public init(_ body: String) {
        let words = Self.words(body)
        let whole = words.joined(separator: " ")
        if Self.stopWords.contains(whole) {
            self = .stop
        } else if Self.startWords.contains(whole) {
            self = .start
        } else if Self.helpWords.contains(whole) {
            self = .help
        } else if body.unicodeScalars.contains(where: { $0.value == 0x1F44D }) && words.isEmpty {
            self = .checkIn  // 👍 alone
        } else if Self.fineOpenings.contains(where: { words.starts(with: $0) }) {
            self = .checkIn
        } else {
            self = .unclear
        }
    }

    /// Lower-case words of letters and digits; apostrophes vanish ("I'm" is "im"), everything
    /// else separates.
    static func words(_ body: String) -> [String] {
        var words: [String] = []
        var current = ""
        for character in body.lowercased() {
            if character == "'" || character == "’" { continue }
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if !current.isEmpty {
                words.append(current)
                current = ""
            }
        }
        if !current.isEmpty { words.append(current) }
        return words
    }
}
