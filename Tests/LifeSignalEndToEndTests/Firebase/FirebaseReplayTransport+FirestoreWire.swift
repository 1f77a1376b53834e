import FirebaseREST
import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions

/// Firestore's wire shapes for the replay: typed values, documents, filters and error bodies.
extension FirebaseReplayTransport {
    static func domain(_ value: FirestoreValue) -> DocumentValue {
        switch value {
        case .null: .null
        case .boolean(let flag): .bool(flag)
        case .integer(let number): .integer(number)
        case .double(let number): .double(number)
        case .timestamp(let date): .timestamp(date)
        case .string(let text), .reference(let text): .string(text)
        case .bytes(let data): .bytes(data)
        case .geoPoint(let point): .map(["latitude": .double(point.latitude), "longitude": .double(point.longitude)])
        case .array(let values): .array(values.map(domain))
        case .map(let fields): .map(fields.mapValues(domain))
        }
    }

    static func wire(_ value: DocumentValue) -> FirestoreValue {
        switch value {
        case .null: .null
        case .bool(let flag): .boolean(flag)
        case .integer(let number): .integer(number)
        case .double(let number): .double(number)
        case .string(let text): .string(text)
        case .timestamp(let date): .timestamp(date)
        case .bytes(let data): .bytes(data)
        case .array(let values): .array(values.map(wire))
        case .map(let fields): .map(fields.mapValues(wire))
        }
    }

    static func resourceName(_ raw: [String], _ path: DocumentPath) -> String {
        "projects/\(raw[3])/databases/\(raw[5].removingPercentEncoding ?? raw[5])/documents/\(path.rawValue)"
    }

    static func document(_ snapshot: DocumentSnapshot, name: String) -> FirestoreDocument {
        FirestoreDocument(
            name: name, fields: snapshot.data.mapValues(wire),
            createTime: snapshot.createTime.map(DocumentTimestamp.string(from:)),
            updateTime: snapshot.updateTime.map(DocumentTimestamp.string(from:)))
    }

    /// A `where`: one `fieldFilter`, or an AND `compositeFilter` of them (what the adapter sends).
    static func filters(_ filter: [String: Any]) throws -> [DocumentQuery.Filter] {
        if let composite = filter["compositeFilter"] as? [String: Any] {
            guard composite["op"] as? String == "AND", let parts = composite["filters"] as? [[String: Any]] else {
                throw DomainError.invalidArgument("Only AND composite filters are replayed")
            }
            return try parts.flatMap(filters)
        }
        guard let field = filter["fieldFilter"] as? [String: Any], let op = field["op"] as? String, let rawValue = field["value"] else {
            throw DomainError.invalidArgument("A filter is a fieldFilter or a compositeFilter")
        }
        let ops: [String: DocumentQuery.Operator] = [
            "EQUAL": .equal, "NOT_EQUAL": .notEqual, "LESS_THAN": .lessThan, "LESS_THAN_OR_EQUAL": .lessThanOrEqual,
            "GREATER_THAN": .greaterThan, "GREATER_THAN_OR_EQUAL": .greaterThanOrEqual, "IN": .in, "ARRAY_CONTAINS": .arrayContains,
        ]
        guard let mapped = ops[op] else { throw DomainError.invalidArgument("Operator \(op) is not replayed") }
        let value = try JSONDecoder().decode(FirestoreValue.self, from: try JSONSerialization.data(withJSONObject: rawValue))
        return [DocumentQuery.Filter(field: try fieldPath(field["field"]), op: mapped, value: domain(value))]
    }

    /// `{"fieldPath": "a.`b c`"}` as the dotted path the domain's query takes.
    static func fieldPath(_ reference: Any?) throws -> String {
        guard let text = (reference as? [String: Any])?["fieldPath"] as? String else {
            throw DomainError.invalidArgument("A field reference needs fieldPath")
        }
        return try DocumentFieldPath(firestore: text).description
    }

    static func jsonObject(_ value: some Encodable) throws -> Any {
        try JSONSerialization.jsonObject(with: try JSONEncoder().encode(value))
    }

    static func firestoreJSON(_ value: some Encodable) throws -> FirebaseHTTPResponse {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return FirebaseHTTPResponse(status: 200, headers: ["Content-Type": "application/json; charset=UTF-8"], body: try encoder.encode(value))
    }

    /// The backend's refusals as Firestore words them. Security rules refuse with
    /// `PERMISSION_DENIED` whether or not anyone is signed in.
    static func firestoreError(for error: DomainError) -> FirebaseHTTPResponse {
        switch error {
        case .notFound: firestoreError(404, "NOT_FOUND", error.message)
        case .forbidden, .unauthenticated: firestoreError(403, "PERMISSION_DENIED", "Missing or insufficient permissions.")
        case .invalidArgument, .invalidPhone: firestoreError(400, "INVALID_ARGUMENT", error.message)
        case .failedPrecondition: firestoreError(400, "FAILED_PRECONDITION", error.message)
        case .alreadyExists: firestoreError(409, "ALREADY_EXISTS", error.message)
        case .rateLimited, .tooManyAttempts: firestoreError(429, "RESOURCE_EXHAUSTED", error.message)
        default: firestoreError(500, "INTERNAL", error.message)
        }
    }

    static func firestoreError(_ code: Int, _ status: String, _ message: String) -> FirebaseHTTPResponse {
        json(code, ["error": ["code": code, "message": message, "status": status]])
    }
}
