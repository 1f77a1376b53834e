import Foundation
import LifeSignalDomain
import Synchronization

/// The preview client's documents: one signed-in person's, in memory, with the backends'
/// rules, so a screen previewed with it is refused where it would be refused for real.
///
/// Its state is guarded by one lock (a write reads, changes and stores under it).
final class PreviewDocumentStore: Sendable {
    static let me = "00000000-0000-4000-8000-00000000c001"
    private struct State {
        var documents: [DocumentPath: DocumentSnapshot] = [:]
        var listeners: [UUID: (DocumentPath, AsyncThrowingStream<DocumentSnapshot, any Error>.Continuation)] = [:]
        var queryListeners: [UUID: (DocumentQuery, AsyncThrowingStream<[DocumentSnapshot], any Error>.Continuation)] = [:]
    }

    private let state = Mutex(State())
    private let now: @Sendable () -> Date

    init(now: @escaping @Sendable () -> Date = { Date(timeIntervalSince1970: 1_800_000_000) }) {
        self.now = now
        let at = now()
        let seed: [(String, [String: DocumentValue])] = [
            (
                "users/\(Self.me)",
                [
                    "firstName": "Ann", "lastName": "Lee", "checkInIntervalHours": 24, "notificationsEnabled": true,
                    "emergencyNote": "Spare key with the neighbour at no. 12", "lastCheckIn": .timestamp(at.addingTimeInterval(-3600)),
                ]
            ),
            ("users/\(Self.me)/contacts/bob", ["name": "Bob Lee", "roles": ["responder"], "addedAt": .timestamp(at.addingTimeInterval(-86400 * 30))]),
            (
                "users/\(Self.me)/contacts/cat",
                ["name": "Cat Diaz", "roles": ["responder", "dependent"], "addedAt": .timestamp(at.addingTimeInterval(-86400 * 3))]
            ),
        ]
        state.withLock { state in
            for (text, data) in seed {
                if let path = try? DocumentPath(text) {
                    state.documents[path] = DocumentSnapshot(path: path, data: data, createTime: at, updateTime: at)
                }
            }
        }
    }

    func get(_ path: DocumentPath) throws -> DocumentSnapshot {
        try Self.requireOwn(path.segments)
        return state.withLock { state in state.documents[path] } ?? .missing(path)
    }

    func set(_ path: DocumentPath, _ data: [String: DocumentValue], merge: Bool) throws {
        try Self.requireOwn(path.segments)
        try DocumentRules.validate(data, at: path)
        try write(path) { stored in merge ? DocumentRules.merging(stored ?? [:], with: data) : data }
    }

    func update(_ path: DocumentPath, _ fields: [String: DocumentValue]) throws {
        try Self.requireOwn(path.segments)
        guard !fields.isEmpty else { throw DomainError.invalidArgument("An update needs at least one field") }
        try write(path) { stored in
            guard let stored else { throw DomainError.notFound("Document \(path)") }
            return try DocumentRules.updating(stored, with: fields)
        }
    }

    func delete(_ path: DocumentPath) throws {
        try Self.requireOwn(path.segments)
        let removed = state.withLock { state in state.documents.removeValue(forKey: path) }
        if removed != nil { announce(.missing(path)) }
    }

    func query(_ query: DocumentQuery) throws -> [DocumentSnapshot] {
        try Self.requireOwn(query.collection.segments)
        try query.validate()
        return query.evaluate(state.withLock { state in Array(state.documents.values) })
    }

    func listen(_ path: DocumentPath) throws -> AsyncThrowingStream<DocumentSnapshot, any Error> {
        try Self.requireOwn(path.segments)
        let (stream, continuation) = AsyncThrowingStream<DocumentSnapshot, any Error>.makeStream()
        let id = UUID()
        // Registered and read under one lock, so no write falls between the two.
        state.withLock { state in
            continuation.yield(state.documents[path] ?? .missing(path))
            state.listeners[id] = (path, continuation)
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.state.withLock { state in state.listeners.removeValue(forKey: id) }
        }
        return stream
    }

    func listen(_ query: DocumentQuery) throws -> AsyncThrowingStream<[DocumentSnapshot], any Error> {
        try Self.requireOwn(query.collection.segments)
        try query.validate()
        let (stream, continuation) = AsyncThrowingStream<[DocumentSnapshot], any Error>.makeStream()
        let id = UUID()
        state.withLock { state in
            continuation.yield(query.evaluate(Array(state.documents.values)))
            state.queryListeners[id] = (query, continuation)
        }
        continuation.onTermination = { [weak self] _ in
            guard let self else { return }
            _ = self.state.withLock { state in state.queryListeners.removeValue(forKey: id) }
        }
        return stream
    }

    private func write(_ path: DocumentPath, _ change: ([String: DocumentValue]?) throws -> [String: DocumentValue]) throws {
        let at = now()
        let snapshot = try state.withLock { state throws -> DocumentSnapshot in
            let data = try change(state.documents[path]?.data)
            try DocumentRules.validate(data, at: path)
            let snapshot = DocumentSnapshot(path: path, data: data, createTime: state.documents[path]?.createTime ?? at, updateTime: at)
            state.documents[path] = snapshot
            return snapshot
        }
        announce(snapshot)
    }

    private func announce(_ snapshot: DocumentSnapshot) {
        let (targets, queries, all) = state.withLock { state in
            (Array(state.listeners.values), Array(state.queryListeners.values), Array(state.documents.values))
        }
        for (path, continuation) in targets where path == snapshot.path { continuation.yield(snapshot) }
        for (query, continuation) in queries where query.collection == snapshot.path.parent { continuation.yield(query.evaluate(all)) }
    }

    private static func requireOwn(_ segments: [String]) throws(DomainError) {
        guard DocumentRules.owner(of: segments) == me else {
            throw .forbidden("Only your own documents can be read or written: users/\(me)/…, not \(segments.joined(separator: "/"))")
        }
    }
}
