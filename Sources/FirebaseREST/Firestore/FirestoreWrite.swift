import Foundation

/// A server-side change to one field, applied atomically by `commit`.
public struct FirestoreFieldTransform: Sendable, Equatable {
    /// What the server does to the field.
    public enum Kind: Sendable, Equatable {
        /// Sets the field to the commit time (`setToServerValue: REQUEST_TIME`).
        case serverTimestamp
        /// Adds to the field (an integer or double value).
        case increment(FirestoreValue)
        case maximum(FirestoreValue)
        case minimum(FirestoreValue)
        case appendMissingElements([FirestoreValue])
        case removeAllFromArray([FirestoreValue])
    }

    public var fieldPath: String
    public var kind: Kind

    /// Creates a transform of `fieldPath`.
    public init(_ fieldPath: String, _ kind: Kind) {
        self.fieldPath = fieldPath
        self.kind = kind
    }

    var wire: FirestoreWireJSON {
        var object: [String: FirestoreWireJSON] = ["fieldPath": .string(fieldPath)]
        switch kind {
        case .serverTimestamp: object["setToServerValue"] = .string("REQUEST_TIME")
        case .increment(let value): object["increment"] = .value(value)
        case .maximum(let value): object["maximum"] = .value(value)
        case .minimum(let value): object["minimum"] = .value(value)
        case .appendMissingElements(let values): object["appendMissingElements"] = .object(["values": .array(values.map { .value($0) })])
        case .removeAllFromArray(let values): object["removeAllFromArray"] = .object(["values": .array(values.map { .value($0) })])
        }
        return .object(object)
    }
}

/// One write of a `commit`; all writes of a commit apply atomically or not at all.
///
/// Paths are relative to the database's `documents` (`users/u1`); the client expands them to
/// full resource names.
public struct FirestoreWrite: Sendable, Equatable {
    enum Operation: Sendable, Equatable {
        case update(path: String, fields: [String: FirestoreValue], mask: [String]?)
        case delete(path: String)
        case transform(path: String, transforms: [FirestoreFieldTransform])
    }

    var operation: Operation
    var updateTransforms: [FirestoreFieldTransform]
    var precondition: FirestorePrecondition?

    /// Writes `fields`. Without a mask the document is replaced (or created); with one, only
    /// the masked fields change and a masked field absent from `fields` is deleted.
    /// `transforms` run after the update, in the same write.
    public static func update(
        _ path: String, fields: [String: FirestoreValue], mask: [String]? = nil,
        transforms: [FirestoreFieldTransform] = [], precondition: FirestorePrecondition? = nil
    ) -> FirestoreWrite {
        FirestoreWrite(
            operation: .update(path: path, fields: fields, mask: mask), updateTransforms: transforms, precondition: precondition)
    }

    /// Deletes the document.
    public static func delete(_ path: String, precondition: FirestorePrecondition? = nil) -> FirestoreWrite {
        FirestoreWrite(operation: .delete(path: path), updateTransforms: [], precondition: precondition)
    }

    /// Only transforms fields (e.g. increments a counter) without writing others.
    public static func transform(
        _ path: String, _ transforms: [FirestoreFieldTransform], precondition: FirestorePrecondition? = nil
    ) -> FirestoreWrite {
        FirestoreWrite(operation: .transform(path: path, transforms: transforms), updateTransforms: [], precondition: precondition)
    }

    func wire(resolve: (String) throws -> String) throws -> FirestoreWireJSON {
        var object: [String: FirestoreWireJSON] = [:]
        switch operation {
        case .update(let path, let fields, let mask):
            object["update"] = .object(["name": .string(try resolve(path)), "fields": .fields(fields)])
            if let mask { object["updateMask"] = .object(["fieldPaths": .array(mask.map { .string($0) })]) }
        case .delete(let path):
            object["delete"] = .string(try resolve(path))
        case .transform(let path, let transforms):
            object["transform"] = .object([
                "document": .string(try resolve(path)), "fieldTransforms": .array(transforms.map(\.wire)),
            ])
        }
        if !updateTransforms.isEmpty { object["updateTransforms"] = .array(updateTransforms.map(\.wire)) }
        if let precondition {
            switch precondition {
            case .exists(let flag): object["currentDocument"] = .object(["exists": .bool(flag)])
            case .updateTime(let time): object["currentDocument"] = .object(["updateTime": .string(time)])
            }
        }
        return .object(object)
    }
}

/// The reply of `commit`.
public struct FirestoreCommitResponse: Sendable, Equatable, Decodable {
    /// One result per write, in order.
    public struct WriteResult: Sendable, Equatable, Decodable {
        public var updateTime: String?
        /// The values the field transforms produced (the server timestamp, the new counter).
        public var transformResults: [FirestoreValue]?
    }
    public var writeResults: [WriteResult]?
    public var commitTime: String?
}

/// One element of a `batchGet` reply.
public enum FirestoreBatchGetResult: Sendable, Equatable {
    case found(FirestoreDocument)
    /// The full name of a document that does not exist.
    case missing(String)
}
