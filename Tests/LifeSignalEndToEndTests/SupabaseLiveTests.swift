import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import SupabaseREST
import Testing

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// SupabaseREST against a real `lifesignal` server on both engines: the seed-004 queries, the
/// builder's filters and transforms, storage, and errors as typed values.
@Suite("SupabaseREST live against lifesignal serve")
struct SupabaseLiveTests {
    struct Location: Codable, Equatable {
        var id: UUID?
        var name: String
        var slug: String
        var status: String?
        var sortOrder: Int?
        var createdBy: UUID?
        var deletedAt: Date?

        enum CodingKeys: String, CodingKey {
            case id, name, slug, status
            case sortOrder = "sort_order"
            case createdBy = "created_by"
            case deletedAt = "deleted_at"
        }
    }

    struct Event: Codable, Equatable {
        var name: String
        var slug: String
        var startDate: String?
        var endDate: String?
        var createdBy: UUID?

        enum CodingKeys: String, CodingKey {
            case name, slug
            case startDate = "start_date"
            case endDate = "end_date"
            case createdBy = "created_by"
        }
    }

    static func client(_ test: TestBackend, _ server: TestServer) async throws -> (SupabaseClient, UUID) {
        let client = SupabaseClient(
            supabaseURL: server.baseURL, supabaseKey: server.anonKey,
            options: SupabaseClientOptions(auth: .init(storage: InMemoryAuthStorage())))
        try await client.auth.signInWithOTP(phone: "+15550001111")
        let response = try await client.auth.verifyOTP(phone: "+15550001111", token: "123456", type: .sms)
        let session = try #require(response.session)
        // Content is written by editors only (docs/security.md, "Content"): the service role
        // makes this person one, and the refreshed token carries the role.
        try await server.makeEditor(session.user.id.uuidString.lowercased())
        try await client.auth.refreshSession()
        return (client, session.user.id)
    }

    @Test("seed 004: create, search, order, update, soft delete — non-deleted rows only", arguments: Engine.allCases)
    func contentContract(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let (client, me) = try await Self.client(test, server)

        for (name, order) in [("Paris Vineyard", 2), ("Amador Flower Farm", 1), ("Old Paris Road", 1), ("Sutter Creek", 0)] {
            let created: Location = try await client.from("locations")
                .insert(Location(name: name, slug: name.lowercased().replacingOccurrences(of: " ", with: "-"), sortOrder: order, createdBy: me))
                .select().single().execute().value
            #expect(created.id != nil)
            #expect(created.status == "draft")
        }
        let searched: [Location] = try await client.from("locations").select()
            .is("deleted_at", value: nil).ilike("name", pattern: "%paris%")
            .order("sort_order", ascending: true).order("name", ascending: true)
            .execute().value
        #expect(searched.map(\.name) == ["Old Paris Road", "Paris Vineyard"])

        let target = try #require(searched.first?.id)
        let updated: Location = try await client.from("locations")
            .update(["name": "Old Paris Rd"]).eq("id", value: target).select().single().execute().value
        #expect(updated.name == "Old Paris Rd")
        try await client.from("locations").update(["deleted_at": ISO8601DateFormatter().string(from: Date())]).eq("id", value: target).execute()
        let remaining: [Location] = try await client.from("locations").select().is("deleted_at", value: nil)
            .order("sort_order", ascending: true).order("name", ascending: true).execute().value
        #expect(remaining.map(\.name) == ["Sutter Creek", "Amador Flower Farm", "Paris Vineyard"])

        let counted = try await client.from("locations").select("id", head: true, count: .exact).is("deleted_at", value: nil).execute()
        #expect(counted.count == 3)
        let paged: [Location] = try await client.from("locations").select().order("name").range(from: 1, to: 2).execute().value
        #expect(paged.count == 2)
    }

    @Test("seed 004: the events date window keeps undated events", arguments: Engine.allCases)
    func eventDates(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let (client, me) = try await Self.client(test, server)
        let events = [
            Event(name: "Past", slug: "past", startDate: "2024-05-01", endDate: "2024-05-02", createdBy: me),
            Event(name: "Spanning", slug: "spanning", startDate: "2024-05-30", endDate: "2024-06-03", createdBy: me),
            Event(name: "June", slug: "june", startDate: "2024-06-10", endDate: nil, createdBy: me),
            Event(name: "Later", slug: "later", startDate: "2024-08-01", endDate: nil, createdBy: me),
            Event(name: "Undated", slug: "undated", startDate: nil, endDate: nil, createdBy: me),
        ]
        try await client.from("events").insert(events).execute()
        let from = "2024-06-01"
        let to = "2024-06-30"
        let found: [Event] = try await client.from("events").select()
            .is("deleted_at", value: nil)
            .or("start_date.gte.\(from),end_date.gte.\(from),and(start_date.is.null,end_date.is.null)")
            .lte("start_date", value: to)
            .order("sort_order", ascending: true).order("start_date", ascending: true)
            .execute().value
        // `start_date <= to` drops undated rows, exactly as the contract's SQL does.
        #expect(found.map(\.name) == ["Spanning", "June"])
        let withoutUpperBound: [Event] = try await client.from("events").select()
            .or("start_date.gte.\(from),end_date.gte.\(from),and(start_date.is.null,end_date.is.null)")
            .order("start_date", ascending: true, nullsFirst: false).execute().value
        #expect(withoutUpperBound.map(\.name) == ["Spanning", "June", "Later", "Undated"])
    }

    @Test("errors arrive typed: PostgREST codes, functions' codes, auth codes", arguments: Engine.allCases)
    func typedErrors(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let (client, me) = try await Self.client(test, server)
        await #expect { try await client.from("nowhere").select().execute() } throws: { ($0 as? PostgrestError)?.code == "PGRST205" }
        try await client.from("locations").insert(Location(name: "A", slug: "a", createdBy: me)).execute()
        await #expect { try await client.from("locations").insert(Location(name: "B", slug: "a", createdBy: me)).execute() } throws: {
            ($0 as? PostgrestError)?.code == "23505"
        }
        _ = try await client.functions.invoke("check-in") as CheckInResponse
        await #expect {
            let _: CheckInResponse = try await client.functions.invoke("check-in")
        } throws: { error in
            guard case FunctionsError.httpError(let code, let data) = error else { return false }
            return code == 400 && String(decoding: data, as: UTF8.self).contains("check_in_too_soon")
        }
        await #expect { try await client.auth.verifyOTP(phone: "+15550002222", token: "000000", type: .sms) } throws: { error in
            guard case AuthError.api(let code, _, let status) = error else { return false }
            return code == "otp_expired" && status == 403
        }
    }

    @Test("functions: JSON and text bodies, decoded replies, httpError with the function's own body", arguments: Engine.allCases)
    func functions(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let (client, me) = try await Self.client(test, server)

        let profile: [String: AnyJSON] = try await client.functions.invoke(
            "update-check-in-settings", options: FunctionInvokeOptions(body: ["checkInInterval": 7200.0]))
        #expect(profile["success"] == .bool(true))
        #expect(profile["userId"]?.stringValue?.lowercased() == me.uuidString.lowercased())

        func refusal(_ name: String, _ options: FunctionInvokeOptions, on client: SupabaseClient) async -> (Int, String)? {
            do {
                try await client.functions.invoke(name, options: options)
                return nil
            } catch FunctionsError.httpError(let code, let data) {
                return (code, String(decoding: data, as: UTF8.self))
            } catch {
                return nil
            }
        }
        let outOfRange = await refusal("update-check-in-settings", FunctionInvokeOptions(body: ["checkInInterval": 1.0]), on: client)
        #expect(outOfRange?.0 == 400)
        let notJSON = await refusal("update-check-in-settings", FunctionInvokeOptions(body: "interval please"), on: client)
        #expect(notJSON?.0 == 400)
        #expect(notJSON?.1.isEmpty == false)
        #expect(await refusal("no-such-function", FunctionInvokeOptions(), on: client)?.0 == 404)
        let anonymous = SupabaseClient(supabaseURL: server.baseURL, supabaseKey: server.anonKey)
        #expect(await refusal("check-in", FunctionInvokeOptions(), on: anonymous)?.0 == 401)
    }

    @Test("storage: upload an avatar, read it back publicly, remove it", arguments: Engine.allCases)
    func storage(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine, testOTPs: try TestOTPs(parsing: "+15550001111=123456"))
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let (client, me) = try await Self.client(test, server)
        let path = "\(me.uuidString.lowercased())/avatar.png"
        let bytes = TestImages.png(width: 4, height: 4)
        let uploaded = try await client.storage.from("avatars").upload(path, data: bytes, options: FileOptions(contentType: "image/png"))
        #expect(uploaded.fullPath == "avatars/\(path)")
        #expect(try await client.storage.from("avatars").download(path: path) == bytes)
        let url = try client.storage.from("avatars").getPublicURL(path: path)
        let (publicBytes, _) = try await URLSession.shared.data(from: url)
        #expect(publicBytes == bytes)
        await #expect(throws: StorageError.self) {
            try await client.storage.from("avatars").upload("someone-else/avatar.png", data: bytes, options: FileOptions(contentType: "image/png"))
        }
        // Replacing: a second upload is a conflict unless upserting; update (PUT) replaces.
        await #expect(throws: StorageError(statusCode: "409", error: "Duplicate", message: "The resource already exists")) {
            try await client.storage.from("avatars").upload(path, data: bytes, options: FileOptions(contentType: "image/png"))
        }
        let second = TestImages.png(width: 4, height: 4, shade: 2)
        try await client.storage.from("avatars").upload(path, data: second, options: FileOptions(contentType: "image/png", upsert: true))
        #expect(try await client.storage.from("avatars").download(path: path) == second)
        let third = TestImages.jpeg
        #expect(
            try await client.storage.from("avatars").update(path, data: third, options: FileOptions(contentType: "image/jpeg")).fullPath == "avatars/\(path)")
        #expect(try await client.storage.from("avatars").download(path: path) == third)
        // Markup sent as a picture is refused in Storage's shape, and the picture stays.
        let svg = Data(#"<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>"#.utf8)
        await #expect { try await client.storage.from("avatars").update(path, data: svg, options: FileOptions(contentType: "image/png")) } throws: {
            ($0 as? StorageError)?.statusCode == "415" && ($0 as? StorageError)?.error == "invalid_mime_type"
        }
        #expect(try await client.storage.from("avatars").download(path: path) == third)

        #expect(try await client.storage.from("avatars").remove(paths: [path]) == [path])
        await #expect { try await client.storage.from("avatars").download(path: path) } throws: { ($0 as? StorageError)?.statusCode == "404" }
        await #expect { try await client.storage.from("no-such-bucket").upload("x", data: bytes) } throws: { ($0 as? StorageError)?.statusCode == "404" }
    }
}
