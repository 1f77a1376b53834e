import Foundation
import LifeSignalClients
import LifeSignalDomain
import LifeSignalFunctions
import SupabaseREST

extension SupabaseAdapters {
    /// Documents through the document functions (`get-document`, `set-document`,
    /// `update-document`, `delete-document`, `query-documents`). A listener joins Realtime on
    /// the `documents` row with that path (the server shows each subscriber only rows its
    /// policy lets them read, so only the owner hears of changes) and reads the document again
    /// through `get-document` after each change. A query listener joins Realtime on the rows of
    /// the collection and runs `query-documents` again after each change, and every
    /// ``deletionCheckInterval`` to notice removals. A projected document (`users/{uid}`, its
    /// contacts, `qr_lookup`) has no `documents` row, so its listener asks that often too.
    public var documentsClient: LifeSignalClients.DocumentsClient {
        let adapters = self
        let run: @Sendable (DocumentQuery) async throws -> [DocumentSnapshot] = { query in
            let reply: QueryDocumentsResponse = try await adapters.call(CloudFunctions.queryDocuments, QueryDocumentsRequest(query))
            return reply.documents
        }
        return LifeSignalClients.DocumentsClient(
            getDocument: { path in try await adapters.call(CloudFunctions.getDocument, DocumentPathRequest(path: path.rawValue)) },
            setDocument: { path, data, merge in
                try DocumentRules.validate(data, at: path)
                let _: DocumentSnapshot = try await adapters.call(
                    CloudFunctions.setDocument, SetDocumentRequest(path: path.rawValue, data: data, merge: merge ? true : nil))
            },
            updateDocument: { path, fields in
                let _: DocumentSnapshot = try await adapters.call(CloudFunctions.updateDocument, UpdateDocumentRequest(path: path.rawValue, fields: fields))
            },
            deleteDocument: { path in
                let _: SuccessResponse = try await adapters.call(CloudFunctions.deleteDocument, DocumentPathRequest(path: path.rawValue))
            },
            queryDocuments: { query in
                try query.validate()
                return try await run(query)
            },
            listenDocument: { path in
                try await adapters.followed(
                    "document", bindings: { _ in [Binding(table: DocumentContract.table, filter: "path=eq.\(path.rawValue)")] },
                    every: DocumentContract.isProjected(path) ? Self.deletionCheckInterval : nil, deliveringStart: true,
                    from: { try await adapters.call(CloudFunctions.getDocument, DocumentPathRequest(path: path.rawValue)) })
            },
            listenQuery: { query in
                try query.validate()
                return try await adapters.followed(
                    "documents", bindings: { _ in [Binding(table: DocumentContract.table, filter: "parent=eq.\(query.collection.rawValue)")] },
                    every: Self.deletionCheckInterval, deliveringStart: true, from: { try await run(query) })
            })
    }

    /// How often a query listener runs its query again without a Realtime change: Realtime
    /// routes a DELETE by primary key only (the old row is gone, so no policy can be checked),
    /// so a removal from the collection is noticed by asking again.
    static let deletionCheckInterval: Duration = .seconds(1)
}
