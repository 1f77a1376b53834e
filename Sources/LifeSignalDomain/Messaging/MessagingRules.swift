import Foundation

/// The rules of device messaging that need no I/O: what a topic name may be, what a device
/// token looks like. The backend enforces them; clients and previews check the same ones
/// before a round trip.
public enum MessagingRules {
    /// FCM's limit on a topic name's length.
    public static let maximumTopicLength = 900
    /// The refusal for a bad topic name; ``MessagingError`` reads it back as
    /// ``MessagingError/invalidTopic``, so its opening words must stay.
    public static let topicRuleMessage = "Topic names are 1 to 900 characters of letters, digits and - _ . ~ %"

    /// FCM's topic rule, `[a-zA-Z0-9-_.~%]{1,900}`, exactly: ASCII only, no `/topics/` prefix,
    /// so a name means the same on every backend and in FCM itself.
    public static func isValidTopic(_ topic: String) -> Bool {
        let scalars = topic.unicodeScalars
        guard !scalars.isEmpty, scalars.count <= maximumTopicLength else { return false }
        return scalars.allSatisfy { scalar in
            switch scalar {
            case "a"..."z", "A"..."Z", "0"..."9", "-", "_", ".", "~", "%": true
            default: false
            }
        }
    }

    /// `topic` when it is a valid name, else ``DomainError/invalidArgument(_:)`` with
    /// ``topicRuleMessage``.
    public static func validateTopic(_ topic: String) throws(DomainError) -> String {
        guard isValidTopic(topic) else { throw .invalidArgument(topicRuleMessage) }
        return topic
    }

    /// Random bytes in a device token made here: 256 bits, far beyond guessing, so the token
    /// can stand for the device the way an FCM registration token does.
    public static let tokenEntropyBytes = 32

    /// A fresh device token: ``tokenEntropyBytes`` random bytes from the system's
    /// cryptographic generator, base64url without padding (43 characters, URL- and
    /// header-safe), behind a `ls1.` prefix that says who made it.
    public static func makeDeviceToken() -> String {
        var generator = SystemRandomNumberGenerator()
        let bytes = (0..<tokenEntropyBytes).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
        return "ls1." + Base64URL.encode(bytes)
    }
}
