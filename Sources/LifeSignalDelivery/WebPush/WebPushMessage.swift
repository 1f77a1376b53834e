import Foundation

/// One push message (RFC 8030) and how the push service should treat it.
public struct WebPushMessage: Sendable, Hashable {
    /// `Urgency` (RFC 8030 §5.3): how soon the user agent wants it, against its battery.
    public enum Urgency: String, Sendable, Hashable, CaseIterable {
        case veryLow = "very-low"
        case low
        case normal
        /// Missed check-ins and SOS.
        case high
    }

    /// What the service worker's `push` event reads (`event.data`), encrypted on the way:
    /// at most ``maximumPayloadBytes``.
    public var payload: Data
    /// `TTL` (RFC 8030 §5.2): how long the push service keeps the message for a user agent
    /// that is offline; zero: deliver now or never. Whole seconds.
    public var timeToLive: Duration
    public var urgency: Urgency
    /// `Topic` (RFC 8030 §5.4): a newer message with the same topic replaces one the push
    /// service still holds, so a repeated alert does not pile up. At most 32 base64url
    /// characters.
    public var topic: String?

    public init(payload: Data, timeToLive: Duration = .seconds(24 * 60 * 60), urgency: Urgency = .normal, topic: String? = nil) {
        self.payload = payload
        self.timeToLive = timeToLive
        self.urgency = urgency
        self.topic = topic
    }

    /// The most plaintext one message carries: a push service takes bodies of at most 4096
    /// bytes, and the `aes128gcm` header (86), the padding delimiter (1) and the tag (16) take
    /// the rest.
    public static let maximumPayloadBytes = WebPushEncryption.maximumPlaintextBytes
    public static let maximumTopicLength = 32

    /// Refuses what cannot go out as it is.
    func validate() throws(WebPushError) {
        guard payload.count <= Self.maximumPayloadBytes else {
            throw .payloadTooLarge(bytes: payload.count, limit: Self.maximumPayloadBytes)
        }
        guard timeToLive >= .zero else { throw .invalidMessage("a TTL of zero seconds or more, not \(timeToLive)") }
        if let topic {
            guard !topic.isEmpty, topic.utf8.count <= Self.maximumTopicLength, topic.utf8.allSatisfy(WebPushBase64URL.isAlphabet) else {
                throw .invalidMessage("a topic is 1 to \(Self.maximumTopicLength) base64url characters (A-Z a-z 0-9 - _)")
            }
        }
    }
}
