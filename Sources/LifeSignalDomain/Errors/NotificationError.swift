import Foundation

/// Seed `000_…`'s `NotificationError`: why sending a push notification to a person failed.
///
/// Read from a ``DomainError`` with ``init(_:)`` (what LifeSignal's clients throw), or from
/// the seed's ``SupabaseError`` with `init(_: SupabaseError)` (the seed's table, row for row).
public enum NotificationError: DomainErrorRefining, Hashable {
    /// The caller is not signed in (HTTP 401, `unauthenticated`).
    case unauthorized
    /// The recipient does not exist (`not_found` on "User …").
    case userNotFound
    /// The notification itself was refused: an empty or too long title or body, a bad token
    /// (`invalid_argument`, `invalid_phone`).
    case invalidInput
    /// The backend failed while storing or pushing it (`internal`, HTTP 5xx); try again.
    case sendFailed
    /// A refusal the seed's table has no row for (e.g. `forbidden`: "You can only notify your
    /// contacts"), kept whole so its message reaches the person.
    case unknown(DomainError)

    /// Seed `000_…`'s `sendPushNotification` table, exactly: ``SupabaseError/unauthorized`` →
    /// ``unauthorized``, ``SupabaseError/notFound`` → ``userNotFound``,
    /// ``SupabaseError/badRequest`` → ``invalidInput``, otherwise ``sendFailed``.
    public init(_ error: SupabaseError) {
        switch error {
        case .unauthorized: self = .unauthorized
        case .notFound: self = .userNotFound
        case .badRequest: self = .invalidInput
        case .serverError, .invalidResponse: self = .sendFailed
        }
    }

    /// Reads a rule's failure by its code:
    ///
    /// - `unauthenticated` → ``unauthorized``.
    /// - `not_found` on "User …" → ``userNotFound``. Other not-founds (e.g. "Notification"
    ///   when marking another person's notification read) → ``unknown(_:)``: the seed's row
    ///   means the recipient, and only the subject says whether that is what is missing.
    /// - `invalid_argument`, `invalid_phone` → ``invalidInput``.
    /// - `internal` → ``sendFailed``.
    /// - Anything else → ``unknown(_:)``.
    public init(_ error: DomainError) {
        switch error {
        case .unauthenticated: self = .unauthorized
        case .notFound where error.isMissingUser: self = .userNotFound
        case .invalidArgument, .invalidPhone: self = .invalidInput
        case .internal: self = .sendFailed
        default: self = .unknown(error)
        }
    }
}

extension NotificationError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? {
        switch self {
        case .unauthorized: "Sign in to send notifications"
        case .userNotFound: "The person to notify was not found"
        case .invalidInput: "The notification was refused as written; check its title and text"
        case .sendFailed: "The notification could not be sent; try again"
        case .unknown(let error): error.message
        }
    }

    public var description: String { errorDescription ?? "" }
}
