import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import SupabaseREST
import Testing

/// SupabaseREST's Realtime over a real socket against a real `lifesignal` server on both
/// engines: signed in through SupabaseREST's auth, changes made through its PostgREST
/// builder, delivered to `postgresChange` streams and decoded. The time limit is a bound
/// against a hang: in the full parallel suite on two cores a test here may wait two minutes
/// for its turn before it runs its first line.
@Suite("SupabaseREST Realtime live against lifesignal serve", .timeLimit(.minutes(10)))
struct SupabaseRealtimeLiveTests {
    struct Location: Codable, Equatable {
        var id: UUID?
        var name: String
        var slug: String
        var sortOrder: Int?
        var createdBy: UUID?
        var createdAt: Date?

        enum CodingKeys: String, CodingKey {
            case id, name, slug
            case sortOrder = "sort_order"
            case createdBy = "created_by"
            case createdAt = "created_at"
        }
    }

    static let phones = "+15550001111=123456,+15550002222=654321"

    /// A client signed in as `phone` with its test code.
    static func client(_ server: TestServer, phone: String = "+15550001111", code: String = "123456") async throws -> (SupabaseClient, UUID) {
        let client = SupabaseClient(
            supabaseURL: server.baseURL, supabaseKey: server.anonKey,
            options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage()), realtime: .init(timeoutInterval: .seconds(30))))
        try await client.auth.signInWithOTP(phone: phone)
        let session = try #require(try await client.auth.verifyOTP(phone: phone, token: code, type: .sms).session)
        // Content is written by editors only (docs/security.md, "Content"): the service role
        // makes this person one, and the refreshed token carries the role.
        try await server.makeEditor(session.user.id.uuidString.lowercased())
        try await client.auth.refreshSession()
        return (client, session.user.id)
    }

    /// The first element of `stream`, failing after `limit`.
    static func first<Element: Sendable>(_ stream: AsyncStream<Element>, within limit: Duration = .seconds(30)) async throws -> Element {
        try await withThrowingTaskGroup(of: Element?.self) { group in
            group.addTask {
                for await element in stream { return element }
                return nil
            }
            group.addTask {
                try await Task.sleep(for: limit)
                return nil
            }
            defer { group.cancelAll() }
            guard let first = try await group.next(), let element = first else {
                throw NoChange(limit: limit)
            }
            return element
        }
    }

    struct NoChange: Error, CustomStringConvertible {
        var limit: Duration
        var description: String { "no Realtime change within \(limit) (or the stream ended)" }
    }

    static func insert(_ client: SupabaseClient, _ name: String, by user: UUID) async throws -> Location {
        let slug = name.lowercased().replacingOccurrences(of: " ", with: "-")
        return try await client.from("locations").insert(Location(name: name, slug: slug, createdBy: user))
            .select().single().execute().value
    }

    @Test("a signed-in subscriber receives the INSERT made through PostgREST and decodes it", arguments: Engine.allCases)
    func insertReachesTheSubscriber(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: Self.phones))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let (client, me) = try await Self.client(server)

        let channel = client.channel("locations-inserts")
        let inserts = channel.postgresChange(InsertAction.self, schema: "public", table: "locations")
        try await channel.subscribeWithError()
        #expect(channel.status == .subscribed)
        #expect(client.realtimeV2.status == .connected)

        let created = try await Self.insert(client, "Old Mill", by: me)
        let insert = try await Self.first(inserts)
        let row = try insert.decodeRecord(as: Location.self, decoder: SupabaseJSON.makeDecoder())
        #expect(row.id == created.id)
        #expect(row.name == "Old Mill")
        #expect(row.slug == "old-mill")
        #expect(row.createdBy == me)
        #expect(row.sortOrder == 0)
        #expect(row.createdAt == created.createdAt)
        #expect(insert.columns.contains(Column(name: "id", type: "uuid")))
        #expect(insert.rawMessage.topic == "realtime:locations-inserts")
        #expect(insert.commitTimestamp > Date(timeIntervalSince1970: 1_700_000_000))

        await client.realtimeV2.removeChannel(channel)
        #expect(channel.status == .unsubscribed)
        #expect(client.realtimeV2.status == .disconnected)
    }

    @Test("an UPDATE binding with a filter delivers only matching rows, with the old record", arguments: Engine.allCases)
    func filteredUpdate(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: Self.phones))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let (client, me) = try await Self.client(server)
        let other = try #require(try await Self.insert(client, "Sutter Creek", by: me).id)
        let target = try #require(try await Self.insert(client, "Old Mill", by: me).id)

        let channel = client.channel("mill-updates")
        let updates = channel.postgresChange(UpdateAction.self, table: "locations", filter: "slug=eq.old-mill")
        try await channel.subscribeWithError()
        try await client.from("locations").update(["name": "Sutter Creek Road"]).eq("id", value: other).execute()
        try await client.from("locations").update(["name": "New Mill"]).eq("id", value: target).execute()

        // Commit order is delivery order: had the filter let the other row through, it would
        // come first.
        let update = try await Self.first(updates)
        let row = try update.decodeRecord(as: Location.self)
        #expect(row.id == target)
        #expect(row.name == "New Mill")
        struct Key: Decodable { var id: UUID }
        #expect(try update.decodeOldRecord(as: Key.self).id == target)
        client.realtimeV2.disconnect()
    }

    @Test("joins the server refuses surface its reason as RealtimeError.joinRefused", arguments: Engine.allCases)
    func refusedJoin(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: Self.phones))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let (client, _) = try await Self.client(server)

        let nowhere = client.channel("nowhere")
        _ = nowhere.postgresChange(AnyAction.self, table: "nowhere")
        await #expect {
            try await nowhere.subscribeWithError()
        } throws: { error in
            guard case RealtimeError.joinRefused(let topic, let reason) = error else { return false }
            return topic == "realtime:nowhere"
                && reason.hasPrefix("Unable to subscribe to changes with given parameters")
                && reason.contains("table: nowhere")
        }
        #expect(nowhere.status == .unsubscribed)

        // Not signed in, the same socket setup is refused a table only users may read.
        let anonymous = SupabaseClient(supabaseURL: server.baseURL, supabaseKey: server.anonKey)
        let notifications = anonymous.channel("notifications")
        _ = notifications.postgresChange(InsertAction.self, table: "notifications")
        await #expect(
            throws: RealtimeError.joinRefused(
                topic: "realtime:notifications",
                reason: "permission denied for table notifications")
        ) {
            try await notifications.subscribeWithError()
        }

        // The refused channel does not spoil the socket: a valid one joins on it.
        let locations = client.channel("locations")
        _ = locations.postgresChange(InsertAction.self, table: "locations")
        try await locations.subscribeWithError()
        #expect(locations.status == .subscribed)
        client.realtimeV2.disconnect()
        anonymous.realtimeV2.disconnect()
    }
}
