import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The content functions (what Firebase callables serve): the wire shapes, the input checks
/// and `get-content`, which the ContentClient contract suite does not reach.
@Suite("Content functions")
struct ContentFunctionsTests {
    @Test(
        "records travel as PostgREST rows; editors read drafts and creators, everyone else published records without them; only editors write, each their own",
        arguments: [Engine.sqlite, .postgres])
    func wireAndAccess(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000003", "Cat")
        for editor in [ann, bob] { _ = try await test.backend.auth.updateAppMetadata(of: editor.userID, merging: #"{"role":"editor"}"#) }
        let saved = try await test.content(
            "save-content", ann, #"{"table":"events","record":{"name":" Harvest Fair ","start_date":"2027-09-18","keywords":["wine"],"sort_order":2}}"#)
        let id = try #require(saved["id"] as? String)
        #expect(id == id.lowercased() && saved["created_by"] as? String == ann.userID.description)
        #expect(saved["name"] as? String == "Harvest Fair" && saved["slug"] as? String == "harvest-fair")
        #expect(saved["status"] as? String == "draft" && saved["start_date"] as? String == "2027-09-18")
        #expect(saved["created_at"] as? String == Timestamp.format(test.clock.now) && saved["deleted_at"] == nil)

        // A draft: editors read it with its creator; nobody else finds it.
        #expect(try await test.call("get-content", bob, ["table": "events", "id": id])["created_by"] as? String == ann.userID.description)
        for reader in [Caller.anonymous, cat] {
            await #expect(throws: DomainError.self) { try await test.call("get-content", reader, ["table": "events", "id": id]) }
            #expect((try await test.call("list-content", reader, ["table": "events"])["records"] as? [[String: Any]])?.isEmpty == true)
        }
        _ = try await test.content(
            "save-content", ann,
            #"{"table":"events","record":{"id":"\#(id)","name":"Harvest Fair","start_date":"2027-09-18","keywords":["wine"],"status":"published"}}"#)
        let read = try await test.call("get-content", .anonymous, ["table": "events", "id": id])
        #expect(read["name"] as? String == "Harvest Fair" && read["keywords"] as? [String] == ["wine"])
        #expect(read["created_by"] == nil || read["created_by"] is NSNull, "the creator is an editor's to see")
        let listed = try await test.call("list-content", cat, ["table": "events", "search": "FAIR", "from": "2027-09-01"])
        let records = try #require(listed["records"] as? [[String: Any]])
        #expect(records.compactMap { $0["id"] as? String } == [id])
        #expect(records.allSatisfy { $0["created_by"] == nil || $0["created_by"] is NSNull })

        await #expect(throws: DomainError.unauthenticated) {
            try await test.content("save-content", .anonymous, #"{"table":"events","record":{"name":"Anon"}}"#)
        }
        await #expect(throws: ContentRules.notEditor(.events)) {
            try await test.content("save-content", cat, #"{"table":"events","record":{"name":"Not an editor"}}"#)
        }
        await #expect(throws: ContentRules.notEditor(.events)) { try await test.call("delete-content", cat, ["table": "events", "id": id]) }
        await #expect(throws: ContentRules.notCreator(.events)) {
            try await test.content("save-content", bob, #"{"table":"events","record":{"id":"\#(id)","name":"Mine now"}}"#)
        }
        await #expect(throws: ContentRules.notCreator(.events)) { try await test.call("delete-content", bob, ["table": "events", "id": id]) }
        _ = try await test.call("delete-content", ann, ["table": "events", "id": id])
        await #expect(throws: DomainError.self) { try await test.call("get-content", .anonymous, ["table": "events", "id": id]) }
        #expect((try await test.call("list-content", ann, ["table": "events"])["records"] as? [[String: Any]])?.isEmpty == true)
        #expect(try await test.count("events") == 1)
    }

    @Test("pages are taken with offset and limit, in the contract's order", arguments: [Engine.sqlite, .postgres])
    func paging(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        _ = try await test.backend.auth.updateAppMetadata(of: ann.userID, merging: #"{"role":"editor"}"#)
        for name in ["c", "a", "b"] {
            _ = try await test.content("save-content", ann, #"{"table":"routes","record":{"name":"\#(name)","status":"published"}}"#)
        }
        func names(_ page: String) async throws -> [String] {
            let reply = try await test.content("list-content", .anonymous, #"{"table":"routes"\#(page)}"#)
            return (reply["records"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        }
        #expect(try await names("") == ["a", "b", "c"])
        #expect(try await names(#","offset":1,"limit":1"#) == ["b"])
        #expect(try await names(#","offset":3"#) == [])
    }

    @Test("bad input is refused as an invalid argument, and nothing is written")
    func badInput() async throws {
        let test = try await TestDatabases.backend(.sqlite)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        _ = try await test.backend.auth.updateAppMetadata(of: ann.userID, merging: #"{"role":"editor"}"#)
        let refused: [(String, String)] = [
            ("list-content", #"{"table":"people"}"#),
            ("list-content", #"{"table":"locations","status":"live"}"#),
            ("list-content", #"{"table":"locations","from":"2027-01-01"}"#),
            ("list-content", #"{"table":"events","to":"2027-13-01"}"#),
            ("list-content", #"{"table":"routes","limit":0}"#),
            ("list-content", #"{"table":"routes","limit":\#(ContentPaging.pageLimit + 1)}"#),
            ("list-content", #"{"table":"routes","offset":-1}"#),
            ("get-content", #"{"table":"routes","id":"not-a-uuid"}"#),
            ("save-content", #"{"table":"routes","record":{"name":"Loop","difficulty":"extreme"}}"#),
            ("save-content", #"{"table":"routes","record":{"name":"Loop","duration_minutes":-5}}"#),
            ("save-content", #"{"table":"events","record":{"name":"Fair","start_date":"tomorrow"}}"#),
            ("save-content", #"{"table":"locations","record":{"name":"   "}}"#),
            ("save-content", #"{"table":"locations","record":{"name":"Place","status":"live"}}"#),
            ("save-content", #"{"table":"locations","record":{"id":"x","name":"Place"}}"#),
            ("delete-content", #"{"table":"locations","id":"x"}"#),
        ]
        for (name, body) in refused {
            await #expect(
                "\(name) \(body)", performing: { try await test.content(name, ann, body) },
                throws: { error in
                    (error as? DomainError)?.code == "invalid_argument"
                })
        }
        // A record without a name does not decode at all: the wire's bad request.
        await #expect(throws: BackendFunctions.Failure.self) { try await test.content("save-content", ann, #"{"table":"locations","record":{}}"#) }
        for table in ["locations", "events", "routes"] { #expect(try await test.count(table) == 0) }
    }
}

extension TestBackend {
    /// Calls a function with a JSON body written out (nested objects included).
    @discardableResult
    func content(_ name: String, _ caller: Caller, _ json: String) async throws -> [String: Any] {
        let data = try await backend.functions.call(name, caller: caller, body: Data(json.utf8))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}
