import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The read path end to end: on PostgreSQL one round trip — an anonymous read as it is on
/// connections logged in as `anon`, any other through `lifesignal_run_as` with filter values
/// written into the statement as literals; on SQLite bound parameters.
@Suite("/rest/v1 read path")
struct RESTReadPathTests {
    @Test("filter values with quotes, backslashes and placeholders match literally; a NUL is a clean 4xx", arguments: Engine.allCases)
    func awkwardValues(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550003333")
        let awkward = ["O'Brien's \\ $1 park", "'); DELETE FROM locations; --", "E'\\\\'"]
        for (index, name) in awkward.enumerated() {
            let made = try await server.json(
                "POST", "/rest/v1/locations", bearer: alice.accessToken,
                ["name": name, "slug": "awkward-\(index)", "status": "published", "created_by": alice.user.id.description])
            #expect(made.status == 201)
        }
        for name in awkward {
            let encoded = try #require(name.addingPercentEncoding(withAllowedCharacters: .alphanumerics))
            let read = try await server.request("GET", "/rest/v1/locations?select=name&name=eq.\(encoded)")
            #expect(read.status == 200)
            #expect(read.jsonArray?.compactMap { $0["name"] as? String } == [name])
        }
        let nul = try await server.request("GET", "/rest/v1/locations?select=name&name=eq.a%00b")
        #expect(nul.status == 400, "\(nul.status) \(nul.text)")
        #expect(nul.json?["code"] as? String == "22021")
        let nulDelete = try await server.request("DELETE", "/rest/v1/locations?name=neq.a%00b", bearer: alice.accessToken)
        #expect(nulDelete.status == 400, "a write's filter is refused alike")
        #expect(try await test.count("locations") == awkward.count)
    }

    @Test("a read sees rows as its caller: row-level security decides, and the count agrees with the page", arguments: Engine.allCases)
    func callerScoped(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550004444")
        _ = try await test.signIn("+15550005555")
        let mine = try await server.request("GET", "/rest/v1/users?select=phone", bearer: alice.accessToken, headers: ["Prefer": "count=exact"])
        #expect(mine.status == 200)
        #expect(mine.jsonArray?.compactMap { $0["phone"] as? String } == ["+15550004444"])
        #expect(mine.header("content-range") == "0-0/1")
        let anonymous = try await server.request("GET", "/rest/v1/users?select=phone", headers: ["Prefer": "count=exact"])
        let anonymousSeesNothing = anonymous.status >= 400 || anonymous.jsonArray?.isEmpty == true
        #expect(anonymousSeesNothing, "\(anonymous.status) \(anonymous.text)")
    }

    @Test("the query string: empty pairs and bare keys are skipped, + and %XX decode, non-ASCII names are names", arguments: Engine.allCases)
    func queryStringParsing(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signInEditor("+15550006666")
        for (index, name) in ["a b c", "a+b"].enumerated() {
            let made = try await server.json(
                "POST", "/rest/v1/locations", bearer: alice.accessToken,
                ["name": name, "slug": "parse-\(index)", "status": "published", "created_by": alice.user.id.description])
            #expect(made.status == 201)
        }
        let spaced = try await server.request("GET", "/rest/v1/locations?&select=name&&name=eq.a+b%20c&flag&")
        #expect(spaced.status == 200, "\(spaced.text)")
        #expect(spaced.jsonArray?.compactMap { $0["name"] as? String } == ["a b c"])
        let plus = try await server.request("GET", "/rest/v1/locations?select=name&name=eq.a%2Bb")
        #expect(plus.jsonArray?.compactMap { $0["name"] as? String } == ["a+b"])
        let unknown = try await server.request("GET", "/rest/v1/locations?select=name&n%C3%A4me=eq.x")
        #expect(unknown.status == 400, "\(unknown.status) \(unknown.text)")
        #expect(unknown.json?["code"] as? String == "42703")
        #expect((unknown.json?["message"] as? String)?.contains("näme") == true, "\(unknown.text)")
        // An anon key sent as bearer (as supabase-js does when signed out) reads as anonymous.
        let bearerAnon = try await server.request("GET", "/rest/v1/locations?select=name&order=name.asc", bearer: server.anonKey)
        let noBearer = try await server.request("GET", "/rest/v1/locations?select=name&order=name.asc")
        #expect(bearerAnon.status == 200 && noBearer.status == 200)
        #expect(bearerAnon.text == noBearer.text)
        #expect(noBearer.jsonArray?.count == 2)
    }
}
