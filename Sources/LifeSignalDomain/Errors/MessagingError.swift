import Foundation

/// Seed `002_…`'s `MessagingError`: why getting a device token, subscribing to a topic or
/// sending a message failed.
///
/// Read from a ``DomainError`` with ``init(_:)``, like the other per-domain errors.
public enum MessagingError: DomainErrorRefining, Hashable {
    /// No token can be had: nobody is signed in (a device token is registered for a person).
    case tokenUnavailable
    /// The token is not registered to the signed-in person: deleted, never registered, or
    /// registered since by someone else.
    case notRegistered
    /// The topic name breaks FCM's rule (``MessagingRules/isValidTopic(_:)``).
    case invalidTopic
    /// The caller may not do this (sending to a topic is for the backend only).
    case permissionDenied
    /// The backend could not be reached.
    case network
    /// Anything else, kept whole so its message reaches the person.
    case unknown(DomainError)

    /// Reads a rule's failure by its code:
    ///
    /// - `unauthenticated` → ``tokenUnavailable``.
    /// - `not_found` on "Push token" → ``notRegistered``; other not-founds → ``unknown(_:)``.
    /// - `invalid_argument` with ``MessagingRules/topicRuleMessage`` → ``invalidTopic``;
    ///   other invalid arguments (a title too long) → ``unknown(_:)``.
    /// - `forbidden` → ``permissionDenied``.
    /// - `internal` opening "Could not reach " or "Firebase did not answer" (how the adapters
    ///   report transport failures) → ``network``.
    /// - Anything else → ``unknown(_:)``.
    public init(_ error: DomainError) {
        switch error {
        case .unauthenticated: self = .tokenUnavailable
        case .notFound where error.missingSubject == "Push token": self = .notRegistered
        case .invalidArgument(let why) where why == MessagingRules.topicRuleMessage: self = .invalidTopic
        case .forbidden: self = .permissionDenied
        case .internal(let why) where why.hasPrefix("Could not reach ") || why.hasPrefix("Firebase did not answer"): self = .network
        default: self = .unknown(error)
        }
    }
}

extension MessagingError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? {
        switch self {
        case .tokenUnavailable: "Sign in to receive messages on this device"
        case .notRegistered: "This device is not registered for messages; get a new token"
        case .invalidTopic: MessagingRules.topicRuleMessage
        case .permissionDenied: "You are not allowed to do that"
        case .network: "The server could not be reached; check the connection and try again"
        case .unknown(let error): error.message
        }
    }

    public var description: String { errorDescription ?? "" }
}
