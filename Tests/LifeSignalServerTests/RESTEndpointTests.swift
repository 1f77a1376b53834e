import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

@Suite("/rest/v1 reads")
struct RESTEndpointTests {
    @Test("a person reads their own row and nobody else's", arguments: Engine.allCases)
    func ownRowOnly(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let bob = try await test.signIn("+15550002222")
        _ = try await test.backend.checkIns.checkIn(caller: .user(alice.user.id))

        let own = try await server.request(
            "GET", "/rest/v1/users?select=id,phone,interval:check_in_interval_seconds,last_check_in_at,notifications_enabled&id=eq.\(alice.user.id)",
            bearer: alice.accessToken)
        #expect(own.status == 200)
        let rows = try #require(own.jsonArray)
        #expect(rows.count == 1)
        #expect(rows.first?["phone"] as? String == "+15550001111")
        #expect(rows.first?["interval"] as? Int == 86400)
        #expect(rows.first?["notifications_enabled"] as? Bool == true)
        #expect(rows.first?["last_check_in_at"] as? String == Timestamp.postgresText(test.clock.now))
        #expect(own.header("Content-Range") == "0-0/*")

        let all = try await server.request("GET", "/rest/v1/users?select=id", bearer: bob.accessToken)
        #expect(all.jsonArray?.count == 1)
        #expect(all.jsonArray?.first?["id"] as? String == bob.user.id.description)
        let snooping = try await server.request("GET", "/rest/v1/users?id=eq.\(alice.user.id)", bearer: bob.accessToken)
        #expect(snooping.status == 200)
        #expect(snooping.jsonArray?.isEmpty == true)
        let service = try await server.request("GET", "/rest/v1/users?select=id&order=phone.desc", bearer: server.serviceKey)
        #expect(service.jsonArray?.map { $0["id"] as? String } == [bob.user.id.description, alice.user.id.description])
        let anonymous = try await server.request("GET", "/rest/v1/users")
        #expect(anonymous.status == 401)
        #expect(anonymous.json?["code"] as? String == "42501")
    }

    @Test("a users row is its owner's: neither a responder nor a stranger reads it (docs/security.md)", arguments: Engine.allCases)
    func usersRowsAreTheirOwners(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let ann = try await test.signIn("+15550001111")
        let bob = try await test.signIn("+15550002222")
        let eve = try await test.signIn("+15550003333")
        let annCode = try await test.backend.contacts.qrCode(caller: .user(ann.user.id))  // her screen shows it
        _ = try await test.backend.contacts.addContact(caller: .user(bob.user.id), qrCodeID: annCode.id, roles: .dependent)
        let path = "/rest/v1/users?select=phone,check_in_deadline&id=eq.\(ann.user.id)"
        #expect(try await server.request("GET", path, bearer: ann.accessToken).jsonArray?.first?["phone"] as? String == "+15550001111")
        #expect(try await server.request("GET", path, bearer: bob.accessToken).jsonArray?.isEmpty == true)
        #expect(try await server.request("GET", path, bearer: eve.accessToken).jsonArray?.isEmpty == true)
        let everyone = try await server.request("GET", "/rest/v1/users?select=phone&order=phone", bearer: ann.accessToken)
        #expect(everyone.jsonArray?.compactMap { $0["phone"] as? String } == ["+15550001111"])
    }

    @Test("single-object reads, counts and the filter grammar", arguments: Engine.allCases)
    func grammar(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        _ = try await test.signIn("+15550002222")
        _ = try await test.signIn("+15550003333")
        let object = ["Accept": "application/vnd.pgrst.object+json"]

        let single = try await server.request("GET", "/rest/v1/users?select=phone", bearer: alice.accessToken, headers: object)
        #expect(single.status == 200)
        #expect(single.json?["phone"] as? String == "+15550001111")
        let none = try await server.request("GET", "/rest/v1/users?phone=eq.nobody", bearer: alice.accessToken, headers: object)
        #expect(none.status == 406)
        #expect(none.json?["code"] as? String == "PGRST116")
        #expect(none.json?["details"] as? String == "The result contains 0 rows")

        let key = server.serviceKey
        let counted = try await server.request("GET", "/rest/v1/users?select=phone&order=phone.asc&limit=2", bearer: key, headers: ["Prefer": "count=exact"])
        #expect(counted.status == 206)
        #expect(counted.header("Content-Range") == "0-1/3")
        let orTree = try await server.request(
            "GET", "/rest/v1/users?select=phone&or=(phone.eq.%2B15550001111,and(phone.like.*3333,last_check_in_at.is.null))&order=phone", bearer: key)
        #expect(orTree.jsonArray?.compactMap { $0["phone"] as? String } == ["+15550001111", "+15550003333"])
        let list = try await server.request("GET", "/rest/v1/users?select=phone&phone=not.in.(%22%2B15550001111%22,%2B15550002222)", bearer: key)
        #expect(list.jsonArray?.compactMap { $0["phone"] as? String } == ["+15550003333"])
        let insensitive = try await server.request("GET", "/rest/v1/users?select=phone&phone=ilike.*2222", bearer: key)
        #expect(insensitive.jsonArray?.count == 1)

        let ranged = try await server.request(
            "GET", "/rest/v1/users?select=phone&order=phone", bearer: key, headers: ["Range": "1-5", "Prefer": "count=exact"])
        #expect(ranged.status == 206)
        #expect(ranged.header("Content-Range") == "1-2/3")
        #expect(ranged.jsonArray?.compactMap { $0["phone"] as? String } == ["+15550002222", "+15550003333"])
        let backwards = try await server.request("GET", "/rest/v1/users?select=phone", bearer: key, headers: ["Range": "5-1"])
        #expect(backwards.status == 416)
        let head = try await server.request("HEAD", "/rest/v1/users?select=phone", bearer: key, headers: ["Prefer": "count=exact"])
        #expect(head.status == 200)
        #expect(head.header("Content-Range") == "0-2/3")
        #expect(head.body.isEmpty)
    }

    @Test("bad reads get PostgREST's errors and the server keeps serving", arguments: Engine.allCases)
    func badReads(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let alice = try await test.signIn("+15550001111")
        let cases: [(String, Int, String)] = [
            ("/rest/v1/nope", 404, "PGRST205"),
            ("/rest/v1/auth_users", 404, "PGRST205"),
            ("/rest/v1/users?select=secret", 400, "42703"),
            ("/rest/v1/users?secret=eq.1", 400, "42703"),
            ("/rest/v1/users?phone=1", 400, "PGRST100"),
            ("/rest/v1/users?phone=EQ.1", 400, "PGRST100"),
            ("/rest/v1/users?order=phone.sideways", 400, "PGRST100"),
            ("/rest/v1/users?or=()", 400, "PGRST100"),
            ("/rest/v1/users?limit=-1", 416, "PGRST103"),
        ]
        for _ in 0..<3 {
            for (path, status, code) in cases {
                let reply = try await server.request("GET", path, bearer: alice.accessToken)
                #expect(reply.status == status, "\(path)")
                #expect(reply.json?["code"] as? String == code, "\(path)")
            }
        }
        let expired = try await server.request("GET", "/rest/v1/users", bearer: "a.b")
        #expect(expired.status == 401)
        #expect(expired.json?["code"] as? String == "PGRST301")
        test.clock.advance(by: 7200)
        let old = try await server.request("GET", "/rest/v1/users", bearer: alice.accessToken)
        #expect(old.status == 401)
        #expect(old.json?["code"] as? String == "PGRST303")
        if engine == .postgres {
            let typed = try await server.request("GET", "/rest/v1/users?id=eq.not-a-uuid", bearer: server.serviceKey)
            #expect(typed.status == 400)
            #expect(typed.json?["code"] as? String == "22P02")
        }
        #expect(try await server.request("GET", "/rest/v1/users?select=id", bearer: server.serviceKey).jsonArray?.count == 1)
    }
}
