import Foundation
import LifeSignalBackend
import LifeSignalClients
import LifeSignalDomain
import SupabaseREST

extension SupabaseAdapters {
    /// Documents through the document functions (`get-document`, `set-document`,
    /// `update-document`, `delete-document`, `query-documents`). A listener joins Realtime on
    /// the `documents` row with that path (the server shows each subscriber only rows its
    /// policy lets them read, so only the owner hears of changes) and reads the document again
    /// through `get-document` after each change. A query listener joins Realtime on the rows of
    /// the collection and runs `query-documents` again after each change, and every
    /// ``deletionCheckInterval`` to notice removals.
    public var storageClient: LifeSignalClients.StorageClient {
        let adapters = self, client = self.client
        return LifeSignalClients.StorageClient(
            getDocument: { path in try await adapters.call("get-document", DocumentPathRequest(path: path.rawValue)) },
            setDocument: { path, data, merge in
                try DocumentRules.validate(data, at: path)
                let _: DocumentSnapshot = try await adapters.call(
                    "set-document", SetDocumentRequest(path: path.rawValue, data: data, merge: merge ? true : nil))
            },
            updateDocument: { path, fields in
                let _: DocumentSnapshot = try await adapters.call("update-document", UpdateDocumentRequest(path: path.rawValue, fields: fields))
            },
            deleteDocument: { path in
                let _: SuccessResponse = try await adapters.call("delete-document", DocumentPathRequest(path: path.rawValue))
            },
            queryDocuments: { query in
                try query.validate()
                let reply: QueryDocumentsResponse = try await adapters.call("query-documents", QueryDocumentsRequest(query))
                return reply.documents
            },
            listenDocument: { path in
                let read: @Sendable () async throws -> DocumentSnapshot = {
                    try await adapters.call("get-document", DocumentPathRequest(path: path.rawValue))
                }
                return try await Self.mapped {
                    let me = try await client.auth.session.user.id.uuidString.lowercased()
                    let channel = client.channel("document-\(me)-\(UUID().uuidString.lowercased())")
                    let changes = channel.postgresChange(AnyAction.self, table: DocumentService.table, filter: "path=eq.\(path.rawValue)")
                    let start: DocumentSnapshot
                    do {
                        try await channel.subscribeWithError()
                        start = try await read()
                    } catch {
                        await client.realtimeV2.removeChannel(channel)
                        throw error
                    }
                    return Rereading.listening(
                        following: changes, from: start, read: { _, _ in try await read() },
                        onTermination: { Task { await client.realtimeV2.removeChannel(channel) } })
                }
            },
            listenQuery: { query in
                try query.validate()
                let read: @Sendable () async throws -> [DocumentSnapshot] = {
                    let reply: QueryDocumentsResponse = try await adapters.call("query-documents", QueryDocumentsRequest(query))
                    return reply.documents
                }
                return try await Self.mapped {
                    let me = try await client.auth.session.user.id.uuidString.lowercased()
                    let channel = client.channel("documents-\(me)-\(UUID().uuidString.lowercased())")
                    let changes = channel.postgresChange(
                        AnyAction.self, table: DocumentService.table, filter: "parent=eq.\(query.collection.rawValue)")
                    let start: [DocumentSnapshot]
                    do {
                        try await channel.subscribeWithError()
                        start = try await read()
                    } catch {
                        await client.realtimeV2.removeChannel(channel)
                        throw error
                    }
                    let (signals, pump) = Self.signals(changes, every: Self.deletionCheckInterval)
                    return Rereading.listening(
                        following: signals, from: start, read: { _, _ in try await read() },
                        onTermination: {
                            pump.cancel()
                            Task { await client.realtimeV2.removeChannel(channel) }
                        })
                }
            })
    }

    /// How often a query listener runs its query again without a Realtime change: Realtime
    /// routes a DELETE by primary key only (the old row is gone, so no policy can be checked),
    /// so a removal from the collection is noticed by asking again.
    static let deletionCheckInterval: Duration = .seconds(1)

    /// One signal per Realtime change and one per `interval`, merged; the task feeding them
    /// runs until cancelled.
    static func signals(_ changes: AsyncStream<AnyAction>, every interval: Duration) -> (AsyncStream<Void>, Task<Void, Never>) {
        let (signals, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
        let pump = Task {
            await withTaskGroup(of: Void.self) { group in
                group.addTask { for await _ in changes { signal.yield() } }
                group.addTask {
                    while !Task.isCancelled {
                        try? await Task.sleep(for: interval)
                        signal.yield()
                    }
                }
            }
            signal.finish()
        }
        return (signals, pump)
    }
}
