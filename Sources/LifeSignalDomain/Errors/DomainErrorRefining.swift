import Foundation

/// A per-domain error enum (seed `000_…`'s `AlertError`, `ContactError`, …) that is read off
/// a ``DomainError``.
///
/// Clients throw ``DomainError`` (one stable `code` for every backend); a screen that wants
/// the seed's narrower vocabulary reads it with `AlertError(error)`. Each conforming type
/// documents, case by case, which codes (and, where a code alone is not enough, which
/// subjects) it maps from.
public protocol DomainErrorRefining: Error, Equatable, Sendable {
    /// The domain reading of a rule's failure.
    init(_ error: DomainError)
}

extension DomainErrorRefining {
    /// Reads any thrown error in this domain: itself as is, a ``DomainError`` by
    /// `init(_: DomainError)`, and anything else (which an adapter should not have let
    /// through) as ``DomainError/internal(_:)`` naming it, mapped the same way.
    ///
    /// A ``SupabaseError`` is not read here by its status: the seed's tables give a status a
    /// meaning only per operation, so use the per-operation initialisers for those.
    public init(_ error: any Error) {
        if let same = error as? Self {
            self = same
        } else if let domain = error as? DomainError {
            self.init(domain)
        } else {
            self.init(DomainError.internal(String(describing: error)))
        }
    }
}

extension DomainError {
    /// What a ``notFound(_:)`` names ("User 7f…", "Active alert", "Invitation 2c…"), else `nil`.
    ///
    /// The backend's not-found refusals name their subject first (`notFound("User \(id)")`),
    /// and the wire form round-trips it (`init(code:message:retryAfter:)` strips
    /// " was not found"), so the subject is what tells "no such user" from "no such alert".
    var missingSubject: String? {
        if case .notFound(let subject) = self { subject } else { nil }
    }

    /// A not-found about a person: the backend's `notFound("User \(id)")`.
    var isMissingUser: Bool { missingSubject?.hasPrefix("User ") == true }

    /// What an ``alreadyExists(_:)`` names ("A pending invitation to +1…"), else `nil`.
    var existingSubject: String? {
        if case .alreadyExists(let subject) = self { subject } else { nil }
    }
}
