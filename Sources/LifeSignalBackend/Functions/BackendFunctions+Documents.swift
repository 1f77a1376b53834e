import Foundation
import LifeSignalDomain
import LifeSignalFunctions

extension BackendFunctions {
    /// The document functions (``DocumentService``): values travel as ``DocumentValue``'s
    /// typed JSON, documents as ``DocumentSnapshot``'s.
    static let documentFunctions: [Registration] = [
        handle(CloudFunctions.getDocument) { backend, caller, request in
            return try await backend.documents.get(caller: caller, path: try documentPath(request.path))
        },
        handle(CloudFunctions.setDocument) { backend, caller, request in
            return try await backend.documents.set(
                caller: caller, path: try documentPath(request.path), data: request.data, merge: request.merge ?? false)
        },
        handle(CloudFunctions.updateDocument) { backend, caller, request in
            return try await backend.documents.update(caller: caller, path: try documentPath(request.path), fields: request.fields)
        },
        handle(CloudFunctions.deleteDocument) { backend, caller, request in
            try await backend.documents.delete(caller: caller, path: try documentPath(request.path))
            return SuccessResponse()
        },
        handle(CloudFunctions.queryDocuments) { backend, caller, request in
            let query = DocumentQuery(
                try collectionPath(request.collection), filters: request.filters ?? [], orderBy: request.orderBy ?? [], limit: request.limit)
            return QueryDocumentsResponse(documents: try await backend.documents.query(caller: caller, query))
        },
    ]

    /// Parsed here rather than by `Decodable` so the refusal names the path and what is wrong.
    static func documentPath(_ text: String) throws(DomainError) -> DocumentPath {
        do { return try DocumentPath(text) } catch { throw .invalidArgument("path: \(error.message)") }
    }

    static func collectionPath(_ text: String) throws(DomainError) -> CollectionPath {
        do { return try CollectionPath(text) } catch { throw .invalidArgument("collection: \(error.message)") }
    }
}
