import Foundation

/// Seed `002_…`'s `StorageError`: why reading or writing a stored document failed.
///
/// Named `DocumentStorageError` rather than `StorageError` because SupabaseREST already has a
/// public `StorageError` (Supabase Storage's wire error); a second one here would make the
/// name ambiguous in every file that imports both modules.
public enum DocumentStorageError: DomainErrorRefining, Hashable {
    /// The document (or file) does not exist.
    case documentNotFound
    /// The caller may not read or write it (security rules, row-level security, or no one
    /// signed in).
    case permissionDenied
    /// The store could not be reached.
    case networkError
    /// The data sent was refused as malformed.
    case invalidData
    /// Anything else, as a sentence a person can read (the seed's `unknown(String)`).
    case unknown(String)

    /// The seed's table on Firestore's canonical error codes, exactly: 5 (`notFound`) →
    /// ``documentNotFound``, 7 (`permissionDenied`) → ``permissionDenied``, 14
    /// (`unavailable`) → ``networkError``, 3 (`invalidArgument`) → ``invalidData``, any other
    /// code → ``unknown(_:)`` with `message` (the seed's `localizedDescription`).
    public init(firestoreCode code: Int, message: String) {
        switch code {
        case 5: self = .documentNotFound
        case 7: self = .permissionDenied
        case 14: self = .networkError
        case 3: self = .invalidData
        default: self = .unknown(message)
        }
    }

    /// Reads a rule's failure by its code, as the seed reads Firestore's:
    ///
    /// - `not_found` → ``documentNotFound``.
    /// - `forbidden` → ``permissionDenied``; so is `unauthenticated`, because Firestore's
    ///   security rules refuse a signed-out request with `PERMISSION_DENIED`, the code the
    ///   seed's table reads.
    /// - `invalid_argument` → ``invalidData``.
    /// - `internal` whose reason begins "Could not reach " or "Firebase did not answer" →
    ///   ``networkError``: the adapters fold transport failures into `internal` with exactly
    ///   these openings (`FirebaseErrorMapping`), and there is no code that tells them from a
    ///   server failure. (Supabase's "Network or decoding failure: …" also covers undecodable
    ///   replies, so it stays ``unknown(_:)``.)
    /// - Anything else → ``unknown(_:)`` with the error's message.
    public init(_ error: DomainError) {
        switch error {
        case .notFound: self = .documentNotFound
        case .forbidden, .unauthenticated: self = .permissionDenied
        case .invalidArgument: self = .invalidData
        case .internal(let why) where why.hasPrefix("Could not reach ") || why.hasPrefix("Firebase did not answer"):
            self = .networkError
        default: self = .unknown(error.message)
        }
    }
}

extension DocumentStorageError: LocalizedError, CustomStringConvertible {
    public var errorDescription: String? {
        switch self {
        case .documentNotFound: "The record was not found"
        case .permissionDenied: "You are not allowed to see or change this record"
        case .networkError: "The server could not be reached; check the connection and try again"
        case .invalidData: "The record was refused as malformed"
        case .unknown(let message): message
        }
    }

    public var description: String { errorDescription ?? "" }
}
