import Foundation
import LifeSignalDomain
import LifeSignalFunctions

/// Firestore-style documents (seed `002_…`'s `DocumentsClient`): the rules behind the document
/// functions and the Local adapter.
///
/// Access is the original app's security rule, owner only: a person reads and writes just
/// the documents under `users/{their uid}/…`; anything else is ``DomainError/forbidden(_:)``
/// and changes nothing; signed out is ``DomainError/unauthenticated``. The service key may
/// touch any person's documents. Contents follow ``DocumentRules`` (Firestore's limits).
///
/// Each committed write is published on the ``ChangeFeed`` with the owner as its owner, so
/// only the owner's in-process listeners hear of it; Realtime learns of it from the table's
/// capture triggers and reads it as each subscriber.
///
/// The original app's own documents — `users/{uid}`, its `contacts`, `qr_lookup` — are not
/// stored but projected from the tables the functions keep, with their own rules
/// (``ProjectedPath``, `DocumentService+Projections.swift`).
public struct DocumentService: Sendable {
    let database: any Database
    let clock: BackendClock
    let changes: ChangeFeed
    /// Writes to `users/{uid}` go through the profile's own rules.
    let profiles: ProfileService

    /// The document, or a snapshot with `exists == false` when there is none.
    public func get(caller: Caller, path: DocumentPath) async throws -> DocumentSnapshot {
        if let projected = ProjectedPath(path) { return try await projectedGet(caller, projected, path) }
        let owner = try Self.owner(caller, path.segments)
        let row = try await database.query("SELECT path, data, created_at, updated_at FROM documents WHERE path = \(path.rawValue) AND owner_id = \(owner)")
            .first
        return try row.map(Self.snapshot) ?? .missing(path)
    }

    /// Writes a whole document, creating it if needed; with `merge`, maps merge into what is
    /// stored field by field (``DocumentRules/merging(_:with:)``) and other fields stay.
    @discardableResult
    public func set(caller: Caller, path: DocumentPath, data: [String: DocumentValue], merge: Bool = false) async throws -> DocumentSnapshot {
        if let projected = ProjectedPath(path) { return try await projectedWrite(caller, projected, path, fields: merge ? data : nil) }
        let owner = try Self.owner(caller, path.segments)
        try DocumentRules.validate(data, at: path)
        return try await write(path, owner: owner) { stored in merge ? DocumentRules.merging(stored ?? [:], with: data) : data }
    }

    /// Changes the given dotted field paths of an existing document (Firestore's
    /// `updateData`); a missing document is ``DomainError/notFound(_:)`` and nothing is made.
    @discardableResult
    public func update(caller: Caller, path: DocumentPath, fields: [String: DocumentValue]) async throws -> DocumentSnapshot {
        if let projected = ProjectedPath(path) {
            guard !fields.isEmpty else { throw DomainError.invalidArgument("An update needs at least one field") }
            return try await projectedWrite(caller, projected, path, fields: fields)
        }
        let owner = try Self.owner(caller, path.segments)
        guard !fields.isEmpty else { throw DomainError.invalidArgument("An update needs at least one field") }
        _ = try DocumentRules.updating([:], with: fields)
        return try await write(path, owner: owner) { stored in
            guard let stored else { throw DomainError.notFound("Document \(path)") }
            return try DocumentRules.updating(stored, with: fields)
        }
    }

    /// Removes the document; removing one that is not there succeeds, as on Firestore.
    public func delete(caller: Caller, path: DocumentPath) async throws {
        if let projected = ProjectedPath(path) {
            _ = try await projectedWrite(caller, projected, path, fields: nil)
            return
        }
        let owner = try Self.owner(caller, path.segments)
        let removed = try await database.query("DELETE FROM documents WHERE path = \(path.rawValue) AND owner_id = \(owner) RETURNING path")
        if !removed.isEmpty {
            changes.publish([ChangeEvent(table: Self.table, kind: .delete, rowID: path.rawValue, ownerID: owner, at: clock.now())])
        }
    }

    /// The documents of one collection the query returns (``DocumentQuery/evaluate(_:)``).
    ///
    /// The owner's documents in that collection are loaded (one indexed range read) and the
    /// filters, order and limit applied in Swift, by the domain's definition: Firestore's
    /// comparisons across integer and double, its type order, and its missing-field rules do
    /// not map onto one SQL that SQLite and PostgreSQL evaluate alike. A collection holds one
    /// person's documents, so the read stays small.
    public func query(caller: Caller, _ query: DocumentQuery) async throws -> [DocumentSnapshot] {
        if let projected = ProjectedCollection(query.collection) {
            try query.validate()
            return try await projectedQuery(caller, projected, query)
        }
        let owner = try Self.owner(caller, query.collection.segments)
        try query.validate()
        let rows = try await database.query(
            """
            SELECT path, data, created_at, updated_at FROM documents
            WHERE owner_id = \(owner) AND parent = \(query.collection.rawValue) ORDER BY path
            """)
        return query.evaluate(try rows.map(Self.snapshot))
    }

    /// Reads the stored fields (locked on PostgreSQL), computes the new ones, validates and
    /// writes them, then publishes the change after commit.
    private func write(
        _ path: DocumentPath, owner: UserID,
        _ change: @escaping @Sendable ([String: DocumentValue]?) throws -> [String: DocumentValue]
    ) async throws -> DocumentSnapshot {
        let now = clock.now()
        let (snapshot, created) = try await database.transaction { connection -> (DocumentSnapshot, Bool) in
            let existing = try await connection.first(
                "SELECT path, data, created_at, updated_at FROM documents WHERE path = \(path.rawValue)" + connection.forUpdate)
            let stored = try existing.map(Self.snapshot)
            let data = try change(stored?.data)
            try DocumentRules.validate(data, at: path)
            let json = try DocumentJSON.encode(data)
            try await connection.query(
                """
                INSERT INTO documents (path, parent, owner_id, data, created_at, updated_at)
                VALUES (\(path.rawValue), \(path.parent.rawValue), \(owner), \(SQLValue.json(json)), \(SQLValue(now)), \(SQLValue(now)))
                ON CONFLICT (path) DO UPDATE SET data = excluded.data, updated_at = excluded.updated_at
                """)
            let createdAt = stored?.createTime ?? DocumentTimestamp.truncated(now)
            return (DocumentSnapshot(path: path, data: data, createTime: createdAt, updateTime: DocumentTimestamp.truncated(now)), stored == nil)
        }
        changes.publish([ChangeEvent(table: Self.table, kind: created ? .insert : .update, rowID: path.rawValue, ownerID: owner, at: now)])
        return snapshot
    }

    /// The person whose documents `segments` name, if the caller may touch them.
    static func owner(_ caller: Caller, _ segments: [String]) throws(DomainError) -> UserID {
        let text = segments.joined(separator: "/")
        switch caller {
        case .anonymous: throw .unauthenticated
        case .user(let id):
            guard DocumentRules.owner(of: segments) == id.description else {
                throw .forbidden("Only your own documents can be read or written: users/\(id)/…, not \(text)")
            }
            return id
        case .service:
            guard let owner = DocumentRules.owner(of: segments), let id = UUID(uuidString: owner), id.uuidString.lowercased() == owner else {
                throw .invalidArgument("Documents are kept under users/{user id}/…, not \(text)")
            }
            return UserID(id)
        }
    }

    static func snapshot(_ row: SQLRow) throws -> DocumentSnapshot {
        let path = try DocumentPath(try row.string("path"))
        return DocumentSnapshot(
            path: path, data: try DocumentJSON.decode(try row.string("data")),
            createTime: row.optionalDate("created_at"), updateTime: row.optionalDate("updated_at"))
    }
}

extension LifeSignalBackend {
    /// Firestore-style documents under `users/{uid}/…`.
    public var documents: DocumentService { DocumentService(database: database, clock: clock, changes: changes, profiles: profiles) }
}
