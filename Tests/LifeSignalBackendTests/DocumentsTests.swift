import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// ``DocumentService`` and the document functions on both engines.
@Suite("Documents")
struct DocumentsTests {
    static func path(_ caller: Caller, _ rest: String) throws -> DocumentPath { try DocumentPath("users/\(caller.userID)/\(rest)") }

    @Test("set, get, merge, update and delete; the table keeps typed JSON and both timestamps", arguments: Engine.allCases)
    func lifecycle(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let documents = test.backend.documents
        let path = try Self.path(ann, "friends/bob")
        #expect(try await documents.get(caller: ann, path: path) == .missing(path))

        let created = try await documents.set(caller: ann, path: path, data: ["name": "Bob", "age": 40, "score": 1.0, "address": ["city": "Leeds"]])
        #expect(created.createTime == test.clock.now && created.updateTime == test.clock.now)
        #expect(try await documents.get(caller: ann, path: path) == created)
        let row = try #require(try await test.backend.database.query("SELECT parent, owner_id, data FROM documents").first)
        #expect(try row.string("parent") == "users/\(ann.userID)/friends" && row.uuid("owner_id") == ann.userID.rawValue)
        #expect(try DocumentJSON.decode(row.string("data"))["score"] == .double(1))

        test.clock.advance(by: 60)
        let merged = try await documents.set(caller: ann, path: path, data: ["address": ["zip": "LS1"]], merge: true)
        #expect(merged.data == ["name": "Bob", "age": 40, "score": 1.0, "address": ["city": "Leeds", "zip": "LS1"]])
        #expect(merged.createTime == created.createTime && merged.updateTime == test.clock.now)
        let updated = try await documents.update(caller: ann, path: path, fields: ["address.city": "York", "age": 41])
        #expect(updated.data == ["name": "Bob", "age": 41, "score": 1.0, "address": ["city": "York", "zip": "LS1"]])
        let none = try Self.path(ann, "friends/none")
        await #expect(throws: DomainError.notFound("Document \(none)")) { try await documents.update(caller: ann, path: none, fields: ["a": 1]) }
        try await documents.delete(caller: ann, path: path)
        try await documents.delete(caller: ann, path: path)
        #expect(try await test.count("documents") == 0)
    }

    @Test("only the owner reads and writes; outside users/<uid> nobody does; signed out is unauthenticated", arguments: Engine.allCases)
    func access(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let documents = test.backend.documents
        let path = try Self.path(ann, "notes/n")
        try await documents.set(caller: ann, path: path, data: ["n": 1])
        await #expect(throws: DomainError.self) { _ = try await documents.get(caller: bob, path: path) }
        await #expect(throws: DomainError.self) { try await documents.set(caller: bob, path: path, data: ["n": 2]) }
        await #expect(throws: DomainError.self) { try await documents.delete(caller: bob, path: path) }
        await #expect(throws: DomainError.unauthenticated) { _ = try await documents.get(caller: .anonymous, path: path) }
        await #expect(throws: DomainError.self) { try await documents.set(caller: ann, path: try DocumentPath("public/x"), data: [:]) }
        #expect(try await documents.get(caller: .service, path: path).data == ["n": 1])
        #expect(try await documents.get(caller: ann, path: path).data == ["n": 1])
        // An account's documents go with it.
        try await test.backend.profiles.deleteAccount(caller: ann)
        #expect(try await test.count("documents") == 0)
    }

    @Test("queries run over the owner's collection only, with the domain's evaluation", arguments: Engine.allCases)
    func query(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let documents = test.backend.documents
        for (id, age) in [("a", 3), ("b", 1), ("c", 2)] {
            try await documents.set(caller: ann, path: try Self.path(ann, "kids/\(id)"), data: ["age": .integer(Int64(age))])
        }
        try await documents.set(caller: ann, path: try Self.path(ann, "kids/a/toys/t"), data: ["age": 0])
        try await documents.set(caller: bob, path: try Self.path(bob, "kids/z"), data: ["age": 0])
        let kids = try CollectionPath("users/\(ann.userID)/kids")
        let found = try await documents.query(caller: ann, DocumentQuery(kids).where("age", .greaterThan, 1).order(by: "age"))
        #expect(found.map(\.id) == ["c", "a"])
        #expect(try await documents.query(caller: ann, DocumentQuery(kids).limit(1)).map(\.id) == ["a"])
        await #expect(throws: DomainError.self) { _ = try await documents.query(caller: bob, DocumentQuery(kids)) }
    }

    @Test("the functions take typed JSON; bad input is invalid_argument with a reason and changes nothing", arguments: Engine.allCases)
    func functions(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let me = ann.userID.description
        @Sendable func call(_ name: String, _ json: String) async throws -> [String: Any] {
            let data = try await test.backend.functions.call(name, caller: ann, body: Data(json.utf8))
            return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
        }
        let reply = try await call("set-document", #"{"path":"users/\#(me)/notes/a","data":{"n":{"integer":"7"},"t":{"timestamp":"2026-01-01T00:00:00.5Z"}}}"#)
        #expect(reply["exists"] as? Bool == true && reply["id"] as? String == "a")
        let read = try await call("get-document", #"{"path":"users/\#(me)/notes/a"}"#)
        #expect((read["data"] as? [String: Any])?["n"] as? [String: String] == ["integer": "7"])
        #expect((read["data"] as? [String: Any])?["t"] as? [String: String] == ["timestamp": "2026-01-01T00:00:00.500000Z"])
        let listed = try await call(
            "query-documents", #"{"collection":"users/\#(me)/notes","filters":[{"field":"n","op":">","value":{"integer":"5"}}],"orderBy":[{"field":"n"}]}"#)
        #expect((listed["documents"] as? [Any])?.count == 1)

        let refusals: [(String, String, String)] = [
            (
                "get-document", #"{"path":"users/\#(me)/notes"}"#,
                "path: \"users/\(me)/notes\" is a collection, not a document: a document path has an even number of segments"
            ),
            ("set-document", #"{"path":"users/\#(me)//a","data":{}}"#, "path: The path \"users/\(me)//a\" has an empty segment"),
            (
                "set-document", #"{"path":"users/\#(me)/notes/b","data":{"n":{"integer":"x"}}}"#,
                "Invalid value for data.n.integer: \"x\" is not a 64-bit integer"
            ),
            (
                "set-document", #"{"path":"users/\#(me)/notes/b","data":{"n":{"integer":"1","double":1}}}"#,
                "Invalid value for data.n: A value is an object with exactly one of the keys null, boolean, integer, double, string, timestamp, bytes, array, map"
            ),
            (
                "set-document", #"{"path":"users/\#(me)/notes/b","data":{"__x__":{"null":null}}}"#,
                "The field name \"__x__\" is reserved (names may not start and end with __)"
            ),
            ("update-document", #"{"path":"users/\#(me)/notes/a","fields":{}}"#, "An update needs at least one field"),
            ("update-document", #"{"path":"users/\#(me)/notes/a","fields":{"a..b":{"integer":"1"}}}"#, "The field path \"a..b\" has an empty segment"),
            ("query-documents", #"{"collection":"users/\#(me)/notes","limit":5000}"#, "limit must be between 1 and 1000, not 5000"),
            (
                "query-documents", #"{"collection":"users/\#(me)/notes","filters":[{"field":"n","op":"in","value":{"integer":"1"}}]}"#,
                "An in filter on n takes an array of 1 to 30 values"
            ),
        ]
        for (name, body, message) in refusals {
            do {
                _ = try await call(name, body)
                Issue.record("\(name) accepted \(body)")
            } catch DomainError.invalidArgument(let why) {
                #expect(why == message, "\(name)")
            } catch BackendFunctions.Failure.badRequest(let why) {
                #expect(why == message, "\(name)")
            }
        }
        #expect(try await test.count("documents") == 1)
        #expect(try await test.backend.documents.get(caller: ann, path: try Self.path(ann, "notes/a")).data["n"] == 7)
    }

    @Test("changes reach the owner's feed only, and the realtime capture", arguments: Engine.allCases)
    func changes(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let annEvents = test.backend.changes.subscribe(.init(table: "documents", ownerID: ann.userID))
        let bobEvents = test.backend.changes.subscribe(.init(table: "documents", ownerID: bob.userID))
        let path = try Self.path(ann, "notes/a")
        try await test.backend.documents.set(caller: ann, path: path, data: ["n": 1])
        try await test.backend.documents.update(caller: ann, path: path, fields: ["n": 2])
        try await test.backend.documents.delete(caller: ann, path: path)
        var seen: [ChangeEvent.Kind] = []
        for await event in annEvents {
            #expect(event.rowID == path.rawValue)
            seen.append(event.kind)
            if seen.count == 3 { break }
        }
        #expect(seen == [.insert, .update, .delete])
        try await test.backend.documents.set(caller: bob, path: try Self.path(bob, "notes/b"), data: [:])
        var bobIterator = bobEvents.makeAsyncIterator()
        #expect(await bobIterator.next()?.rowID == "users/\(bob.userID)/notes/b")
        if engine == .sqlite {
            #expect(
                try await test.backend.database.query("SELECT count(*) AS n FROM lifesignal_realtime_changes WHERE table_name = 'documents'").first?.int("n")
                    == 4)
        }
    }
}
