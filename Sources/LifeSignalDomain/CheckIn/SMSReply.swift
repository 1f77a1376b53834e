import Foundation

/// What a text message to the server's number asks for, read loosely: people write "ok",
/// "OK!", "I'm fine" or "👍", and a flip phone may add a signature.
///
/// The carrier keywords are matched as carriers match them (the whole message, any case,
/// surrounding spaces and punctuation ignored): `STOP` and its synonyms end every message to
/// the number, `START` and its synonyms undo that, `HELP`/`INFO` ask what this is. Anything
/// else is a check-in when its first words say the person is fine, and unclear otherwise.
///
/// A person with a check-in PIN adds it anywhere ("OK 4821", "4821 ok"); a message that is only
/// a PIN ("4821") is a check-in too. The first group of 4 to 8 digits is taken as the PIN.
public enum SMSReply: Equatable, Sendable {
    case stop
    case start
    case help
    case checkIn(pin: String?)
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
            self = .checkIn(pin: nil)  // 👍 alone
        } else if let pin = Self.pin(in: words), words.count == 1 {
            self = .checkIn(pin: pin)
        } else {
            // The PIN may come first ("4821 ok"): the opening is looked for without it.
            let pin = Self.pin(in: words)
            let rest = words.filter { $0 != pin }
            self = Self.fineOpenings.contains(where: { rest.starts(with: $0) }) ? .checkIn(pin: pin) : .unclear
        }
    }

    /// The first word of 4 to 8 digits.
    static func pin(in words: [String]) -> String? {
        words.first { (4...8).contains($0.count) && $0.unicodeScalars.allSatisfy { ("0"..."9").contains($0) } }
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
