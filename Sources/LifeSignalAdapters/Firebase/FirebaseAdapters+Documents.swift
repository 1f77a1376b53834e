import FirebaseREST
import Foundation
import LifeSignalClients
import LifeSignalDomain

extension FirebaseAdapters {
    /// Documents in Cloud Firestore over its REST API, as the seed's adapter keeps them with
    /// the SDK: `setData` is a `PATCH` without a mask (with merge, masked to the leaves
    /// written), `updateData` a `PATCH` masked to the dotted paths with
    /// `currentDocument.exists=true`, queries a `:runQuery` under the collection's parent.
    /// Firestore's security rules are the owner-only rule of the other backends. Listening
    /// polls (``FirestoreClient/listenDocument(_:interval:sleep:)``) every ``pollInterval``:
    /// REST has no realtime channel. A failed poll ends the stream with its error mapped, as
    /// that listener does; listen again to carry on.
    public var documentsClient: DocumentsClient {
        let adapters = self
        return DocumentsClient(
            getDocument: { path in
                let firestore = try await adapters.requireFirestore()
                return try await Self.documents(path) { try await firestore.documentIfExists(path.rawValue) }
                    .map(FirestoreDocumentMapping.snapshot) ?? .missing(path)
            },
            setDocument: { path, data, merge in
                let firestore = try await adapters.requireFirestore()
                try DocumentRules.validate(data, at: path)
                let mask: [String]? =
                    if merge {
                        try DocumentRules.leafPaths(of: data).map { try DocumentFieldPath(segments: $0).firestoreText }
                    } else {
                        nil
                    }
                _ = try await Self.documents(path) {
                    // An empty merge has no mask to send: it only makes sure the document exists.
                    if mask?.isEmpty == true, try await firestore.documentIfExists(path.rawValue) != nil { return }
                    try await firestore.patchDocument(
                        path.rawValue, fields: FirestoreDocumentMapping.wire(data), updateMask: mask?.isEmpty == true ? nil : mask)
                }
            },
            updateDocument: { path, fields in
                let firestore = try await adapters.requireFirestore()
                guard !fields.isEmpty else { throw DomainError.invalidArgument("An update needs at least one field") }
                // The nested body the dotted paths describe; overlapping paths are refused here.
                let body = try DocumentRules.updating([:], with: fields)
                let mask = try fields.keys.sorted().map { try DocumentFieldPath(dotted: $0).firestoreText }
                _ = try await Self.documents(path) {
                    try await firestore.patchDocument(
                        path.rawValue, fields: FirestoreDocumentMapping.wire(body), updateMask: mask, precondition: .exists(true))
                }
            },
            deleteDocument: { path in
                let firestore = try await adapters.requireFirestore()
                try await Self.documents(path) { try await firestore.deleteDocument(path.rawValue) }
            },
            queryDocuments: { query in
                let firestore = try await adapters.requireFirestore()
                try query.validate()
                let (wire, parent) = try FirestoreDocumentMapping.wire(query)
                return try await Self.documents(query.collection) { try await firestore.runQuery(wire, parent: parent) }
                    .map(FirestoreDocumentMapping.snapshot)
            },
            listenDocument: { path in
                let firestore = try await adapters.requireFirestore()
                // Read once before returning, so a refusal is thrown here, not on the stream.
                let start =
                    try await Self.documents(path) { try await firestore.documentIfExists(path.rawValue) }
                    .map(FirestoreDocumentMapping.snapshot) ?? .missing(path)
                let polls = firestore.listenDocument(path.rawValue, interval: adapters.pollInterval)
                return Self.following(polls, from: start, path: path) { try $0.map(FirestoreDocumentMapping.snapshot) ?? .missing(path) }
            },
            listenQuery: { query in
                let firestore = try await adapters.requireFirestore()
                try query.validate()
                let (wire, parent) = try FirestoreDocumentMapping.wire(query)
                let start = try await Self.documents(query.collection) { try await firestore.runQuery(wire, parent: parent) }
                    .map(FirestoreDocumentMapping.snapshot)
                let polls = firestore.listenQuery(wire, parent: parent, interval: adapters.pollInterval)
                return Self.following(polls, from: start, path: query.collection) { try $0.map(FirestoreDocumentMapping.snapshot) }
            })
    }

    /// `start`, then each poll's value that differs from the last delivered; a failed poll
    /// ends the stream with its error in the domain's words.
    static func following<Wire: Sendable, Value: Sendable & Equatable>(
        _ polls: AsyncThrowingStream<Wire, any Error>, from start: Value, path: some CustomStringConvertible & Sendable,
        map: @escaping @Sendable (Wire) throws -> Value
    ) -> AsyncThrowingStream<Value, any Error> {
        AsyncThrowingStream { continuation in
            continuation.yield(start)
            let task = Task {
                var last = start
                do {
                    for try await wire in polls {
                        let value = try map(wire)
                        if value != last { continuation.yield(value) }
                        last = value
                    }
                    continuation.finish()
                } catch let error as FirestoreError {
                    continuation.finish(throwing: FirestoreDocumentMapping.domain(error, path: path.description))
                } catch {
                    continuation.finish(throwing: FirebaseErrorMapping.map(error))
                }
            }
            continuation.onTermination = { _ in task.cancel() }
        }
    }

    /// The Firestore client, once someone is signed in: every document belongs to a person,
    /// so a request without one is refused here as ``DomainError/unauthenticated``.
    func requireFirestore() async throws -> FirestoreClient {
        guard let firestore else {
            throw DomainError.failedPrecondition("No Firestore project is configured, so documents cannot be stored")
        }
        guard await tokens.currentTokens != nil else { throw DomainError.unauthenticated }
        return firestore
    }

    /// Runs a Firestore call with its failures in the domain's words.
    static func documents<T>(_ path: some CustomStringConvertible, _ body: () async throws -> T) async throws -> T {
        do { return try await body() } catch let error as FirestoreError {
            throw FirestoreDocumentMapping.domain(error, path: path.description)
        } catch {
            throw FirebaseErrorMapping.map(error)
        }
    }
}
