import Foundation
import LifeSignalAdapters
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions

extension LocalAdapters {
    /// Documents on the embedded backend; a listener follows the backend's change feed for
    /// the owner's `documents` and reads the document (or runs the query) again on each
    /// change to it (or to its collection). A projected document (`users/{uid}`, its
    /// contacts, `qr_lookup`) is read again on each change to the tables it is made from,
    /// whoever made it: a contact's check-in changes my contact documents.
    public var documentsClient: DocumentsClient {
        let documents = backend.documents
        let changes = backend.changes
        let adapters = self
        return DocumentsClient(
            getDocument: { try await documents.get(caller: try await adapters.caller(), path: $0) },
            setDocument: { try await documents.set(caller: try await adapters.caller(), path: $0, data: $1, merge: $2) },
            updateDocument: { try await documents.update(caller: try await adapters.caller(), path: $0, fields: $1) },
            deleteDocument: { try await documents.delete(caller: try await adapters.caller(), path: $0) },
            queryDocuments: { try await documents.query(caller: try await adapters.caller(), $0) },
            listenDocument: { path in
                let caller = try await adapters.caller()
                let me = try caller.requireUser()
                let projected = DocumentService.isProjected(path)
                // Subscribed before the first read, so nothing committed after it is missed;
                // the feed routes a document's changes to its owner only.
                let events = changes.subscribe(projected ? ChangeFeed.Filter() : ChangeFeed.Filter(table: DocumentService.table, ownerID: me))
                let start = try await documents.get(caller: caller, path: path)
                return Rereading.listening(following: events, from: start) { event, _ in
                    guard projected ? DocumentService.projectionSources.contains(event.table) : event.rowID == path.rawValue else { return nil }
                    return try await documents.get(caller: try await adapters.caller(), path: path)
                }
            },
            listenQuery: { query in
                let caller = try await adapters.caller()
                let me = try caller.requireUser()
                let projected = DocumentService.isProjected(query.collection)
                let events = changes.subscribe(projected ? ChangeFeed.Filter() : ChangeFeed.Filter(table: DocumentService.table, ownerID: me))
                let start = try await documents.query(caller: caller, query)
                return Rereading.listening(following: events, from: start) { event, _ in
                    guard
                        projected
                            ? DocumentService.projectionSources.contains(event.table)
                            : (try? DocumentPath(event.rowID))?.parent == query.collection
                    else { return nil }
                    return try await documents.query(caller: try await adapters.caller(), query)
                }
            })
    }
}
