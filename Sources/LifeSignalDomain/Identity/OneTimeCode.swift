import Foundation

/// A 6-digit sign-in code sent by SMS.
public struct OneTimeCode: Hashable, Sendable, CustomStringConvertible {
    public static let length = 6
    /// How long a code may be used after it was issued.
    public static let lifetime: TimeInterval = 5 * 60
    /// Wrong guesses allowed before the code is burned; with 6 digits this keeps the odds of
    /// guessing a code at 5 in a million.
    public static let maximumAttempts = 5
    /// The shortest time between two codes sent to one phone while the first is unused
    /// (GoTrue's `sms_max_frequency`): it stops SMS floods, and a guesser who burned a code
    /// from asking for a fresh one at once.
    public static let resendInterval: TimeInterval = 60

    public let value: String

    public init(_ text: String) throws(DomainError) {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard trimmed.count == Self.length, trimmed.allSatisfy({ $0.isASCII && $0.isNumber }) else {
            throw .invalidOTP
        }
        self.value = trimmed
    }

    private init(unchecked value: String) { self.value = value }

    /// A fresh random code, leading zeros allowed.
    public static func random<G: RandomNumberGenerator>(using generator: inout G) -> OneTimeCode {
        let number = Int.random(in: 0..<1_000_000, using: &generator)
        let text = String(number)

        return OneTimeCode(unchecked: String(repeating: "0", count: length - text.count) + text)
    }

    public var description: String { value }
}
