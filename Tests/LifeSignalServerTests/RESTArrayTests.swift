import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Array columns (`events.keywords text[]`) and PostgREST's `cs`/`cd`/`ov` filters, the same
/// on PostgreSQL, which has arrays, and on SQLite, which keeps a JSON array.
@Suite("/rest/v1 arrays")
struct RESTArrayTests {
    static let events: [(slug: String, keywords: any Sendable)] = [
        ("walk", ["outdoor", "free"]),
        ("choir", "{music,\"free, weekly\"}"),  // an array literal string is accepted too
        ("gig", ["music", "outdoor", "evening"]),
        ("plain", [String]()),
    ]

    static func seeded(_ engine: Engine) async throws -> (TestBackend, TestServer, String) {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        let alice = try await test.signInEditor("+15550006666")
        for event in events {
            let made = try await server.json(
                "POST", "/rest/v1/events", bearer: alice.accessToken, headers: ["Prefer": "return=representation"],
                ["name": event.slug, "slug": event.slug, "keywords": event.keywords, "status": "published", "created_by": alice.user.id.description])
            #expect(made.status == 201, "\(made.status) \(made.text)")
        }
        return (test, server, alice.accessToken)
    }

    func slugs(_ server: TestServer, _ query: String) async throws -> [String] {
        let reply = try await server.request("GET", "/rest/v1/events?select=slug&order=slug&\(query)")
        #expect(reply.status == 200, "\(query): \(reply.status) \(reply.text)")
        return reply.jsonArray?.compactMap { $0["slug"] as? String } ?? []
    }

    @Test("arrays round-trip as JSON arrays, and cs, cd, ov, not. and logic trees select alike", arguments: Engine.allCases)
    func filters(engine: Engine) async throws {
        let (_, server, _) = try await Self.seeded(engine)
        defer { Task { await server.stop() } }

        let choir = try await server.request("GET", "/rest/v1/events?select=keywords&slug=eq.choir")
        #expect(choir.jsonArray?.first?["keywords"] as? [String] == ["music", "free, weekly"])
        let plain = try await server.request("GET", "/rest/v1/events?select=keywords&slug=eq.plain")
        #expect(plain.jsonArray?.first?["keywords"] as? [String] == [])

        #expect(try await slugs(server, "keywords=cs.%7Bmusic%7D") == ["choir", "gig"])
        #expect(try await slugs(server, "keywords=cs.%7Bmusic,outdoor%7D") == ["gig"])
        #expect(try await slugs(server, "keywords=cs.%7B%22free,%20weekly%22%7D") == ["choir"])
        #expect(try await slugs(server, "keywords=cs.%7B%7D") == ["choir", "gig", "plain", "walk"], "everything contains the empty array")
        #expect(try await slugs(server, "keywords=cs.%7Bmusic,NULL%7D") == [], "a NULL element equals nothing")
        #expect(try await slugs(server, "keywords=cd.%7Boutdoor,free,music%7D") == ["plain", "walk"])
        #expect(try await slugs(server, "keywords=ov.%7Bfree,evening%7D") == ["gig", "walk"])
        #expect(try await slugs(server, "keywords=ov.%7B%7D") == [])
        #expect(try await slugs(server, "keywords=not.ov.%7Bmusic%7D") == ["plain", "walk"])
        #expect(try await slugs(server, "or=(keywords.cs.%7Bevening%7D,keywords.cd.%7B%7D)") == ["gig", "plain"])
        #expect(try await slugs(server, "and=(keywords.ov.%7Bmusic,free%7D,keywords.not.cs.%7Boutdoor%7D)") == ["choir"])
    }

    @Test(
        "updates replace the array; malformed literals and array operators on plain columns are PostgreSQL's errors, nothing changed",
        arguments: Engine.allCases)
    func writesAndErrors(engine: Engine) async throws {
        let (test, server, token) = try await Self.seeded(engine)
        defer { Task { await server.stop() } }

        let updated = try await server.request(
            "PATCH", "/rest/v1/events?slug=eq.walk", bearer: token, headers: ["Prefer": "return=representation"],
            body: Data(#"{"keywords":["outdoor","dogs welcome",null]}"#.utf8))
        #expect(updated.status == 200, "\(updated.text)")
        let kept = (updated.jsonArray?.first?["keywords"] as? [Any])?.map { $0 as? String }
        #expect(kept == ["outdoor", "dogs welcome", nil], "a NULL element survives the round trip")
        #expect(try await slugs(server, "keywords=cs.%7B%22dogs%20welcome%22%7D") == ["walk"])

        let before = try await server.request("GET", "/rest/v1/events?select=slug,keywords&order=slug").text
        for body in ["not an array", "{unclosed", "{\"a\"b}"] {
            let refused = try await server.json("PATCH", "/rest/v1/events?slug=eq.gig", bearer: token, ["keywords": body])
            #expect(refused.status == 400, "\(body): \(refused.status) \(refused.text)")
            #expect(refused.json?["code"] as? String == "22P02")
            #expect(refused.json?["message"] as? String == "malformed array literal: \"\(body)\"")
        }
        let nested = try await server.json("PATCH", "/rest/v1/events?slug=eq.gig", bearer: token, ["keywords": [["a"], ["b"]]])
        #expect(nested.status == 400, "\(nested.text)")
        let malformedFilter = try await server.request("GET", "/rest/v1/events?select=slug&keywords=cs.music")
        #expect(malformedFilter.status == 400, "\(malformedFilter.text)")
        #expect(malformedFilter.json?["code"] as? String == "22P02")
        #expect(malformedFilter.json?["message"] as? String == "malformed array literal: \"music\"")
        let plainColumn = try await server.request("GET", "/rest/v1/events?select=slug&name=cs.%7Bwalk%7D")
        #expect(plainColumn.status == 404, "\(plainColumn.text)")
        #expect(plainColumn.json?["code"] as? String == "42883")
        #expect(plainColumn.json?["message"] as? String == "operator does not exist: text @> unknown")
        let after = try await server.request("GET", "/rest/v1/events?select=slug,keywords&order=slug").text
        #expect(after == before)
        #expect(try await test.count("events") == Self.events.count)
    }
}
