import ConcurrencyExtras
import Dependencies
import DependenciesMacros
import Foundation
import LifeSignalDomain

/// Firestore-style documents (seed `002_…`'s `DocumentsClient`), the same on every backend.
///
/// A person reads and writes only the documents under `users/{their uid}/…` (the profile
/// document `users/{uid}` and collections below it such as `users/{uid}/contacts`).
/// Refusals arrive as ``DomainError``; read them with ``DocumentStorageError`` for the seed's
/// vocabulary:
///
/// - another person's document, or one outside `users/{uid}` — ``DomainError/forbidden(_:)``
///   (``DocumentStorageError/permissionDenied``), nothing changed;
/// - signed out — ``DomainError/unauthenticated`` (also `permissionDenied`);
/// - `updateDocument` on a missing document — ``DomainError/notFound(_:)``
///   (``DocumentStorageError/documentNotFound``), nothing created;
/// - a document breaking ``DocumentRules`` (over 1 MiB, bad field names, arrays in arrays) or
///   a malformed query — ``DomainError/invalidArgument(_:)`` (``DocumentStorageError/invalidData``),
///   nothing stored.
///
/// Reading a document that is not there is not an error: its snapshot has `exists == false`.
@DependencyClient
public struct DocumentsClient: Sendable {
    /// The document now; `exists == false` when there is none.
    public var getDocument: @Sendable (_ path: DocumentPath) async throws -> DocumentSnapshot
    /// Writes the whole document, creating it if needed. With `merge`, the given fields are
    /// merged in (maps field by field at every depth) and the others stay.
    public var setDocument: @Sendable (_ path: DocumentPath, _ data: [String: DocumentValue], _ merge: Bool) async throws -> Void
    /// Changes fields of an existing document by dotted path (`"address.city"`), as
    /// Firestore's `updateData`; the document must exist.
    public var updateDocument: @Sendable (_ path: DocumentPath, _ fields: [String: DocumentValue]) async throws -> Void
    /// Removes the document; removing one that is not there succeeds.
    public var deleteDocument: @Sendable (_ path: DocumentPath) async throws -> Void
    /// The documents of one collection matching the query, in its order
    /// (``DocumentQuery/evaluate(_:)`` defines the results on every backend).
    public var queryDocuments: @Sendable (_ query: DocumentQuery) async throws -> [DocumentSnapshot]
    /// The document now, then each time it changes (a deletion as `exists == false`). The
    /// stream ends when the consumer stops; it fails when the person is signed out.
    public var listenDocument: @Sendable (_ path: DocumentPath) async throws -> AsyncThrowingStream<DocumentSnapshot, any Error>
    /// The query's results now, then each time they change (a document added, changed,
    /// removed or moved in the order).
    public var listenQuery: @Sendable (_ query: DocumentQuery) async throws -> AsyncThrowingStream<[DocumentSnapshot], any Error>
}

extension DocumentsClient: TestDependencyKey {
    public static let testValue = DocumentsClient()

    /// A signed-in person's documents in memory — a profile and two contacts — under the
    /// same rules as the backends (owner only, ``DocumentRules``, Firestore's query results).
    public static var previewValue: DocumentsClient {
        let store = PreviewDocumentStore()
        return DocumentsClient(
            getDocument: { try store.get($0) },
            setDocument: { try store.set($0, $1, merge: $2) },
            updateDocument: { try store.update($0, $1) },
            deleteDocument: { try store.delete($0) },
            queryDocuments: { try store.query($0) },
            listenDocument: { try store.listen($0) },
            listenQuery: { try store.listen($0) })
    }
}

extension DependencyValues {
    public var documentsClient: DocumentsClient {
        get { self[DocumentsClient.self] }
        set { self[DocumentsClient.self] = newValue }
    }
}
