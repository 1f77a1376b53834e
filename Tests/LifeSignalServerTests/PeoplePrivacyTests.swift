import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// What people see of each other, as docs/security.md's model has it: a `users` row is its
/// owner's alone (QR code id, settings and markers included); a responder reads a dependent's
/// check-ins and, through `get-contacts`, their note and check-in state; a dependent sees none
/// of that of their responder; a stranger sees nothing; nobody shows a phone number they did
/// not prove with a code.
@Suite("people's privacy")
struct PeoplePrivacyTests {
    struct People {
        let ann: IssuedSession  // Bob's dependent
        let bob: IssuedSession  // Ann's responder
        let dan: IssuedSession  // a stranger to both
    }

    /// Bob scans Ann's code and takes her as his dependent; each sets a note and checks in
    /// (Ann only if `annChecksIn`).
    static func people(_ test: TestBackend, annChecksIn: Bool = true) async throws -> People {
        let ann = try await test.signIn("+15550003001")
        let bob = try await test.signIn("+15550003002")
        let dan = try await test.signIn("+15550003003")
        let annCode = try await test.backend.contacts.qrCode(caller: .user(ann.user.id))  // her screen shows it
        _ = try await test.backend.contacts.addContact(caller: .user(bob.user.id), qrCodeID: annCode.id, roles: .dependent)
        for (person, note) in [(ann, "Ann's note"), (bob, "Bob's note"), (dan, "Dan's note")] {
            _ = try await test.backend.profiles.update(caller: .user(person.user.id), ProfileUpdate(emergencyNote: note))
            if person != ann || annChecksIn { _ = try await test.backend.checkIns.checkIn(caller: .user(person.user.id)) }
        }
        return People(ann: ann, bob: bob, dan: dan)
    }

    static func ids(_ reply: TestServer.Reply, _ column: String) throws -> [String] {
        try #require(reply.jsonArray, "\(reply.status) \(reply.text)").compactMap { $0[column] as? String }
    }

    @Test("/rest/v1/users shows each person their own row only; check_ins go to the person and their responders", arguments: Engine.allCases)
    func restReads(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let people = try await Self.people(test)
        let (ann, bob, dan) = (people.ann.user.id.description, people.bob.user.id.description, people.dan.user.id.description)

        for person in [people.ann, people.bob, people.dan] {
            let rows = try await server.request("GET", "/rest/v1/users?select=id,qr_code_id,last_check_in_at", bearer: person.accessToken)
            #expect(try Self.ids(rows, "id") == [person.user.id.description], "\(rows.text)")
            // Asking by id for another's row finds nothing, not an error that says it exists.
            for other in [ann, bob, dan] where other != person.user.id.description {
                let asked = try await server.request("GET", "/rest/v1/users?select=qr_code_id&id=eq.\(other)", bearer: person.accessToken)
                #expect(asked.status == 200 && asked.jsonArray?.isEmpty == true, "\(asked.status) \(asked.text)")
            }
        }
        let bobReads = try Self.ids(try await server.request("GET", "/rest/v1/check_ins?select=user_id", bearer: people.bob.accessToken), "user_id")
        #expect(Set(bobReads) == [ann, bob])
        let annReads = try Self.ids(try await server.request("GET", "/rest/v1/check_ins?select=user_id", bearer: people.ann.accessToken), "user_id")
        #expect(Set(annReads) == [ann], "a dependent does not read their responder's check-ins")
        let danReads = try Self.ids(try await server.request("GET", "/rest/v1/check_ins?select=user_id", bearer: people.dan.accessToken), "user_id")
        #expect(Set(danReads) == [dan])
        let anonymous = try await server.request("GET", "/rest/v1/check_ins?select=user_id")
        #expect(anonymous.status == 401, "\(anonymous.text)")
    }

    @Test("get-contacts gives a responder the dependent's note and check-in state, and a dependent none of the responder's", arguments: Engine.allCases)
    func contactList(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let people = try await Self.people(test)
        func entry(_ viewer: IssuedSession, _ other: IssuedSession) async throws -> [String: any Sendable] {
            let reply = try await server.request("POST", "/functions/v1/get-contacts", bearer: viewer.accessToken, body: Data("{}".utf8))
            let contacts = try #require(reply.json?["contacts"] as? [[String: any Sendable]], "\(reply.status) \(reply.text)")
            return try #require(contacts.first { $0["id"] as? String == other.user.id.description.lowercased() })
        }
        let annSeenByBob = try await entry(people.bob, people.ann)
        #expect(annSeenByBob["emergencyNote"] as? String == "Ann's note")
        #expect(annSeenByBob["lastCheckInTime"] as? String != nil)
        #expect(annSeenByBob["checkInDeadline"] as? String != nil)
        let bobSeenByAnn = try await entry(people.ann, people.bob)
        #expect(bobSeenByAnn["emergencyNote"] as? String == "", "a dependent reads the responder's note: \(bobSeenByAnn)")
        #expect(bobSeenByAnn["lastCheckInTime"] == nil && bobSeenByAnn["checkInDeadline"] == nil, "\(bobSeenByAnn)")
        let danList = try await server.request("POST", "/functions/v1/get-contacts", bearer: people.dan.accessToken, body: Data("{}".utf8))
        #expect((danList.json?["contacts"] as? [Any])?.isEmpty == true, "\(danList.text)")
    }

    @Test("Realtime: a responder hears a dependent's check-in, never their users row; a stranger hears neither", arguments: Engine.allCases)
    func realtime(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let people = try await Self.people(test, annChecksIn: false)
        var sockets: [RealtimeTestSocket] = []
        for viewer in [people.bob, people.dan] {
            let socket = try await RealtimeTestSocket.connect(server, query: "apikey=\(server.anonKey)&vsn=1.0.0")
            let users = try await RealtimeTests.join(socket, topic: "realtime:users", table: "users", token: viewer.accessToken, ref: "1")
            let checkIns = try await RealtimeTests.join(
                socket, topic: "realtime:check-ins", table: "check_ins", event: "INSERT",
                token: viewer.accessToken, ref: "2")
            #expect(users["status"] as? String == "ok" && checkIns["status"] as? String == "ok")
            sockets.append(socket)
        }
        defer { for socket in sockets { Task { await socket.close() } } }
        // Changes arrive in commit order, so Bob hearing the check-in proves the profile
        // change before it was not sent to him. His own rows' changes from the setup may come
        // first: the setup can end within one poll of SQLite's change log, before the
        // dispatcher has read it, and a change is sent to whoever is subscribed when it is read.
        let ann = people.ann.user.id.description.lowercased()
        _ = try await test.backend.profiles.update(caller: .user(people.ann.user.id), ProfileUpdate(firstName: "Annie"))
        _ = try await test.backend.checkIns.checkIn(caller: .user(people.ann.user.id))
        let bobHears = try await Self.changes(on: sockets[0], until: { $0["table"] as? String == "check_ins" && Self.rowID($0) == ann })
        #expect(bobHears.last?["table"] as? String == "check_ins", "\(bobHears)")
        #expect((bobHears.last?["record"] as? [String: any Sendable])?["user_id"] as? String == ann)
        #expect(bobHears.dropLast().allSatisfy { Self.rowID($0) == people.bob.user.id.description.lowercased() }, "\(bobHears)")
        // Dan hears his own change, after Ann's, and nothing of Ann's before it.
        _ = try await test.backend.profiles.update(caller: .user(people.dan.user.id), ProfileUpdate(firstName: "Daniel"))
        let dan = people.dan.user.id.description.lowercased()
        let danHears = try await Self.changes(
            on: sockets[1], until: { Self.rowID($0) == dan && ($0["record"] as? [String: any Sendable])?["first_name"] as? String == "Daniel" })
        #expect(danHears.last?["table"] as? String == "users", "\(danHears)")
        #expect(danHears.allSatisfy { Self.rowID($0) == dan }, "\(danHears)")
    }

    /// The changes a socket receives up to the first that `last` accepts (at most 50).
    static func changes(on socket: RealtimeTestSocket, until last: ([String: any Sendable]) -> Bool) async throws -> [[String: any Sendable]] {
        var heard: [[String: any Sendable]] = []
        while heard.count < 50 {
            let change = try await RealtimeTests.nextChange(socket).data
            heard.append(change)
            if last(change) { break }
        }
        return heard
    }

    /// Whose row a change is: a users row's id, a check-in's user_id.
    static func rowID(_ change: [String: any Sendable]) -> String? {
        let record = change["record"] as? [String: any Sendable]
        return (record?["user_id"] ?? record?["id"]) as? String
    }

    @Test("a profile phone is the number proved with a code: another's number is refused and nothing changes", arguments: Engine.allCases)
    func unverifiedPhone(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let server = try await TestServer.start(test.backend)
        defer { Task { await server.stop() } }
        let people = try await Self.people(test)
        let taken = try await server.json("POST", "/functions/v1/update-user-profile", bearer: people.dan.accessToken, ["phone": "+15550003001"])
        #expect((400..<500).contains(taken.status), "\(taken.status) \(taken.text)")
        #expect(taken.json?["code"] as? String == "failed_precondition", "\(taken.text)")
        let stored = try await test.backend.profiles.profile(caller: .user(people.dan.user.id))
        #expect(stored.phone == "+15550003003")
        let own = try await server.json("POST", "/functions/v1/update-user-profile", bearer: people.dan.accessToken, ["phone": "+1 555 000 3003"])
        #expect(own.status == 200, "\(own.text)")
    }
}
