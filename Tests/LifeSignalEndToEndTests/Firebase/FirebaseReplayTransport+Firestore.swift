import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

/// Cloud Firestore's REST API (v1), played by the backend's ``DocumentService`` as the ID
/// token's user, so the security rules are the backend's: owner-only for stored documents,
/// and the projected documents' own (`users/{uid}`, its `contacts`, `qr_lookup`): `GET`, `PATCH`
/// (no mask: replace; `updateMask.fieldPaths` with `currentDocument.exists=true`: update;
/// a mask without it: merge), `DELETE` of `…/documents/{path}`, and `POST …:runQuery` with a
/// `structuredQuery`. Values travel typed (`integerValue` as a string, `timestampValue` in
/// RFC 3339); errors as `{"error":{code,message,status}}`.
extension FirebaseReplayTransport {
    static let firestoreHost = "firestore.googleapis.com"

    func firestore(_ request: FirebaseHTTPRequest) async -> FirebaseHTTPResponse {
        guard let components = URLComponents(url: request.url, resolvingAgainstBaseURL: false) else { return Self.pageNotFound }
        let raw = components.percentEncodedPath.split(separator: "/", omittingEmptySubsequences: false).map(String.init)
        // ["", "v1", "projects", p, "databases", d, "documents", …]
        guard raw.count >= 7, raw[1] == "v1", raw[2] == "projects", raw[4] == "databases", raw[6].hasPrefix("documents") else {
            return Self.firestoreError(404, "NOT_FOUND", "Not found")
        }
        var segments = raw.dropFirst(7).map { $0.removingPercentEncoding ?? $0 }
        var method = ""
        if let last = segments.last, let colon = last.lastIndex(of: ":") {
            method = String(last[last.index(after: colon)...])
            segments[segments.count - 1] = String(last[..<colon])
            if segments.last?.isEmpty == true { segments.removeLast() }
        } else if raw[6].hasPrefix("documents:") {
            method = String(raw[6].dropFirst("documents:".count))
        }
        let query = components.queryItems ?? []
        let header = request.header("Authorization")
        let caller: Caller
        do {
            guard header == nil || header?.hasPrefix("Bearer ") == true else { throw DomainError.unauthenticated }
            caller = try await backend.auth.tokens.caller(bearer: header.map { String($0.dropFirst("Bearer ".count)) })
        } catch {
            return Self.firestoreError(401, "UNAUTHENTICATED", "Request had invalid authentication credentials.")
        }
        do {
            switch (request.method, method) {
            case (.post, "runQuery"): return try await runQuery(segments, body: request.body ?? Data(), caller: caller)
            case (_, ""): break
            default: return Self.firestoreError(400, "INVALID_ARGUMENT", "Unsupported method \(method)")
            }
            let path = try DocumentPath(segments: segments)
            let name = Self.resourceName(raw, path)
            switch request.method {
            case .get:
                let snapshot = try await backend.documents.get(caller: caller, path: path)
                guard snapshot.exists else { return Self.firestoreError(404, "NOT_FOUND", "Document \"\(name)\" not found.") }
                return try Self.firestoreJSON(Self.document(snapshot, name: name))
            case .patch:
                return try await patch(path, name: name, query: query, body: request.body ?? Data(), caller: caller)
            case .delete:
                try await backend.documents.delete(caller: caller, path: path)
                return try Self.firestoreJSON([String: String]())
            default:
                return Self.firestoreError(400, "INVALID_ARGUMENT", "Unsupported verb")
            }
        } catch let error as DomainError {
            return Self.firestoreError(for: error)
        } catch {
            return Self.firestoreError(400, "INVALID_ARGUMENT", "Invalid JSON payload received. \(error)")
        }
    }

    private func patch(_ path: DocumentPath, name: String, query: [URLQueryItem], body: Data, caller: Caller) async throws -> FirebaseHTTPResponse {
        struct Body: Decodable { var fields: [String: FirestoreValue]? }
        let data = (try JSONDecoder().decode(Body.self, from: body).fields ?? [:]).mapValues(Self.domain)
        let mask = try query.filter { $0.name == "updateMask.fieldPaths" }.map { try DocumentFieldPath(firestore: $0.value ?? "") }
        let mustExist = query.first { $0.name == "currentDocument.exists" }?.value
        let snapshot: DocumentSnapshot
        if mask.isEmpty {
            if mustExist == "true", try await backend.documents.get(caller: caller, path: path).exists == false {
                return Self.firestoreError(404, "NOT_FOUND", "No document to update: \(name)")
            }
            snapshot = try await backend.documents.set(caller: caller, path: path, data: data)
        } else {
            var fields: [String: DocumentValue] = [:]
            for field in mask {
                // Deleting a field (masked, absent from the body) is not something the adapters send.
                guard let value = field.value(in: data) else {
                    return Self.firestoreError(400, "INVALID_ARGUMENT", "The replay does not delete fields (\(field.firestoreText))")
                }
                fields[field.description] = value
            }
            if mustExist == "true" {
                guard try await backend.documents.get(caller: caller, path: path).exists else {
                    return Self.firestoreError(404, "NOT_FOUND", "No document to update: \(name)")
                }
                snapshot = try await backend.documents.update(caller: caller, path: path, fields: fields)
            } else {
                snapshot = try await backend.documents.set(caller: caller, path: path, data: data, merge: true)
            }
        }
        return try Self.firestoreJSON(Self.document(snapshot, name: name))
    }

    private func runQuery(_ parent: [String], body: Data, caller: Caller) async throws -> FirebaseHTTPResponse {
        guard let object = (try? JSONSerialization.jsonObject(with: body)) as? [String: Any],
            let structured = object["structuredQuery"] as? [String: Any],
            let from = (structured["from"] as? [[String: Any]])?.first, let collectionID = from["collectionId"] as? String
        else { return Self.firestoreError(400, "INVALID_ARGUMENT", "structuredQuery.from is required") }
        var query = DocumentQuery(try CollectionPath(segments: parent + [collectionID]))
        if let filter = structured["where"] as? [String: Any] { query.filters = try Self.filters(filter) }
        for order in structured["orderBy"] as? [[String: Any]] ?? [] {
            let field = try Self.fieldPath(order["field"])
            query = query.order(by: field, descending: (order["direction"] as? String) == "DESCENDING")
        }
        query.limit = structured["limit"] as? Int
        let documents = try await backend.documents.query(caller: caller, query)
        let readTime = DocumentTimestamp.string(from: backend.clock.now())
        let root = "projects/lifesignal-replay/databases/(default)/documents/"
        var elements: [[String: Any]] = try documents.map { snapshot in
            ["document": try Self.jsonObject(Self.document(snapshot, name: root + snapshot.path.rawValue)), "readTime": readTime]
        }
        if elements.isEmpty { elements = [["readTime": readTime]] }
        let data = (try? JSONSerialization.data(withJSONObject: elements, options: [.sortedKeys])) ?? Data("[]".utf8)
        return FirebaseHTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=UTF-8"], body: data)
    }
}
