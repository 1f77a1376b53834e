import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// Roles as docs/security.md's "Consent" has them, over HTTP on both engines: dropping a role
/// and making someone my responder apply at once to both rows; becoming someone's responder
/// waits for their answer to a request only they can accept or decline.
@Suite("contact consent: role requests")
struct ContactRoleRequestTests {
    typealias People = ContactConsentTests.People

    static func call(_ people: People, _ name: String, _ who: IssuedSession, _ body: [String: any Sendable] = [:]) async throws -> TestServer.Reply {
        try await ContactConsentTests.call(people.server, name, who, body)
    }

    /// Ann and Bob linked by Bob's scan of Ann's code: Ann is Bob's responder.
    static func linked(_ engine: Engine) async throws -> People {
        let people = try await ContactConsentTests.people(engine)
        let code = try ContactConsentTests.code(try await call(people, "get-qr-code", people.ann))
        let added = try await call(people, "add-contact-by-qr", people.bob, ["qrCodeId": code.id, "isResponder": true, "isDependent": false])
        #expect(added.status == 200, "\(added.text)")
        return people
    }

    /// `is_responder, is_dependent` of Bob's row about Ann, then of Ann's row about Bob, read
    /// from the database.
    static func pair(_ people: People) async throws -> [Bool] {
        var roles: [Bool] = []
        for (owner, other) in [(people.bob, people.ann), (people.ann, people.bob)] {
            let row = try #require(
                try await people.test.backend.database.query(
                    """
                    SELECT is_responder, is_dependent FROM contacts
                    WHERE user_id = \(SQLValue.uuid(owner.user.id.rawValue)) AND contact_id = \(SQLValue.uuid(other.user.id.rawValue))
                    """
                ).first)
            roles += [try row.bool("is_responder"), try row.bool("is_dependent")]
        }
        return roles
    }

    static func roles(_ people: People, _ who: IssuedSession, _ other: IssuedSession, responder: Bool, dependent: Bool) async throws -> TestServer.Reply {
        try await call(people, "update-contact-roles", who, ["contactId": other.user.id.description, "isResponder": responder, "isDependent": dependent])
    }

    static func requests(_ people: People, _ who: IssuedSession) async throws -> (received: [[String: any Sendable]], sent: [[String: any Sendable]]) {
        let list = try await call(people, "get-contacts", who)
        let requests = try #require(list.json?["roleRequests"] as? [String: any Sendable], "\(list.text)")
        return (try #require(requests["received"] as? [[String: any Sendable]]), try #require(requests["sent"] as? [[String: any Sendable]]))
    }

    /// What `who` was told of role changes: `title: body (contactId)`.
    static func told(_ people: People, _ who: IssuedSession) async throws -> Set<String> {
        Set(
            try await people.test.backend.notifications.notifications(caller: .user(who.user.id), limit: 100)
                .filter { $0.type == .contactRoleChanged }
                .map { "\($0.title): \($0.body) (\($0.contactID?.description ?? "-"))" })
    }

    @Test("becoming a responder waits for the owner; only the owner answers; the requester cancels", arguments: Engine.allCases)
    func requestFlow(engine: Engine) async throws {
        let people = try await Self.linked(engine)
        defer { Task { await people.server.stop() } }
        let (ann, bob, dan) = (people.ann, people.bob, people.dan)
        _ = try await people.test.backend.checkIns.checkIn(caller: .user(ann.user.id))

        // Bob asks to become Ann's responder: nothing opens yet.
        let asked = try await Self.roles(people, bob, ann, responder: true, dependent: true)
        #expect(asked.status == 200, "\(asked.text)")
        let contact = try #require(asked.json?["contact"] as? [String: any Sendable], "\(asked.text)")
        #expect(contact["isResponder"] as? Bool == true && contact["isDependent"] as? Bool == false, "\(contact)")
        #expect(contact["lastCheckInTime"] == nil, "a pending request opened Ann's check-ins to Bob")
        let pending = try #require(asked.json?["pendingRequest"] as? [String: any Sendable], "\(asked.text)")
        #expect(Set(pending.keys) == ["id", "requesterId", "requesterName", "ownerId", "ownerName", "createdAt"], "\(pending)")
        #expect(pending["requesterId"] as? String == bob.user.id.description && pending["requesterName"] as? String == "Bob Tester")
        #expect(pending["ownerId"] as? String == ann.user.id.description && pending["ownerName"] as? String == "Ann Tester")
        let requestID = try #require(pending["id"] as? String)
        #expect(try await Self.pair(people) == [true, false, false, true])
        let again = try await Self.roles(people, bob, ann, responder: true, dependent: true)
        #expect((again.json?["pendingRequest"] as? [String: any Sendable])?["id"] as? String == requestID, "asking again answers the same request")
        #expect(try await people.test.count("contact_role_requests") == 1)

        // Both see it, names only; Dan sees nothing.
        let annSees = try await Self.requests(people, ann)
        let bobSees = try await Self.requests(people, bob)
        #expect(annSees.received.map { $0["id"] as? String } == [requestID] && annSees.sent.isEmpty)
        #expect(bobSees.sent.map { $0["id"] as? String } == [requestID] && bobSees.received.isEmpty)
        #expect(annSees.received.first.map { Set($0.keys) } == Set(pending.keys))
        let danSees = try await Self.requests(people, dan)
        #expect(danSees.received.isEmpty && danSees.sent.isEmpty)

        // Only Ann answers; only Bob cancels. Anyone else gets the answer an unknown id gets.
        let unknown = try await Self.call(people, "accept-role-request", ann, ["requestId": UUID().uuidString.lowercased()])
        #expect(unknown.status == 404 && unknown.json?["code"] as? String == "not_found", "\(unknown.status) \(unknown.text)")
        for (who, name) in [
            (bob, "accept-role-request"), (bob, "decline-role-request"), (dan, "accept-role-request"),
            (dan, "decline-role-request"), (dan, "cancel-role-request"), (ann, "cancel-role-request"),
        ] {
            let refused = try await Self.call(people, name, who, ["requestId": requestID])
            #expect(refused.status == 404 && refused.text == unknown.text, "\(name) by \(who.user.id): \(refused.status) \(refused.text)")
        }
        #expect(try await people.test.count("contact_role_requests") == 1)
        #expect(try await Self.pair(people) == [true, false, false, true])
        #expect(try await Self.told(people, ann) == ["Responder request: Bob Tester asks to become your responder. (\(bob.user.id))"])

        // Ann accepts: Bob is her responder on both rows and now sees her check-in.
        let accepted = try await Self.call(people, "accept-role-request", ann, ["requestId": requestID])
        #expect(accepted.status == 200, "\(accepted.text)")
        let bobForAnn = try #require(accepted.json?["contact"] as? [String: any Sendable], "\(accepted.text)")
        #expect(bobForAnn["id"] as? String == bob.user.id.description && bobForAnn["isResponder"] as? Bool == true)
        #expect(try await Self.pair(people) == [true, true, true, true])
        #expect(try await people.test.count("contact_role_requests") == 0)
        let bobList = try await Self.call(people, "get-contacts", bob)
        let annForBob = try #require((bobList.json?["contacts"] as? [[String: any Sendable]])?.first, "\(bobList.text)")
        #expect(annForBob["lastCheckInTime"] as? String != nil, "\(annForBob)")
        #expect(try await Self.told(people, bob) == ["Request accepted: Ann Tester accepted: you are now their responder. (\(ann.user.id))"])
        let twice = try await Self.call(people, "accept-role-request", ann, ["requestId": requestID])
        #expect(twice.status == 404 && twice.text == unknown.text)

        // Dropping is one-sided and immediate: Ann drops Bob as her responder.
        let dropped = try await Self.roles(people, ann, bob, responder: false, dependent: true)
        #expect(dropped.status == 200 && dropped.json?["pendingRequest"] is NSNull, "\(dropped.text)")
        #expect(try await Self.pair(people) == [true, false, false, true])
        #expect(try await Self.told(people, bob).contains("Roles changed: Ann Tester no longer has you as their responder. (\(ann.user.id))"))
        // Making someone my responder opens only my data: immediate too.
        let made = try await Self.roles(people, ann, bob, responder: true, dependent: true)
        #expect(made.status == 200 && made.json?["pendingRequest"] is NSNull, "\(made.text)")
        #expect(try await Self.pair(people) == [true, true, true, true])
        #expect(try await Self.told(people, bob).contains("Roles changed: Ann Tester made you their responder. (\(ann.user.id))"))
        #expect(try await Self.told(people, bob).count == 3)
        #expect(try await Self.told(people, dan).isEmpty)
    }

    @Test("declined, cancelled, withdrawn, or gone with the relation: a request changes nothing", arguments: Engine.allCases)
    func requestEnds(engine: Engine) async throws {
        let people = try await Self.linked(engine)
        defer { Task { await people.server.stop() } }
        let (ann, bob) = (people.ann, people.bob)
        func ask() async throws -> String {
            let reply = try await Self.roles(people, bob, ann, responder: true, dependent: true)
            return try #require((reply.json?["pendingRequest"] as? [String: any Sendable])?["id"] as? String, "\(reply.text)")
        }
        let declined = try await Self.call(people, "decline-role-request", ann, ["requestId": try await ask()])
        #expect(declined.status == 200 && declined.json?["success"] as? Bool == true, "\(declined.text)")
        #expect(try await Self.told(people, bob) == ["Request declined: Ann Tester declined your request to become their responder. (\(ann.user.id))"])
        let cancelled = try await Self.call(people, "cancel-role-request", bob, ["requestId": try await ask()])
        #expect(cancelled.status == 200, "\(cancelled.text)")
        #expect(try await people.test.count("contact_role_requests") == 0)
        #expect(try await Self.requests(people, ann).received.isEmpty)
        // Asking for the roles without the dependent one withdraws the request.
        _ = try await ask()
        let withdrawn = try await Self.roles(people, bob, ann, responder: true, dependent: false)
        #expect(withdrawn.status == 200 && withdrawn.json?["pendingRequest"] is NSNull, "\(withdrawn.text)")
        #expect(try await people.test.count("contact_role_requests") == 0)
        #expect(try await Self.pair(people) == [true, false, false, true])
        // A request that would leave no role meanwhile is refused and changes nothing.
        let nothingLeft = try await Self.roles(people, bob, ann, responder: false, dependent: true)
        #expect(nothingLeft.status == 400 && nothingLeft.json?["code"] as? String == "failed_precondition", "\(nothingLeft.status) \(nothingLeft.text)")
        #expect(try await people.test.count("contact_role_requests") == 0)
        #expect(try await Self.pair(people) == [true, false, false, true])
        // Ann making Bob her responder herself answers his pending request.
        _ = try await ask()
        _ = try await Self.roles(people, ann, bob, responder: true, dependent: true)
        #expect(try await people.test.count("contact_role_requests") == 0)
        // Removing the contact, by either side, takes the pending requests with it.
        for remover in [ann, bob] {
            let code = try ContactConsentTests.code(try await Self.call(people, "get-qr-code", ann))
            if try await people.test.count("contacts") == 0 {
                _ = try await Self.call(people, "add-contact-by-qr", bob, ["qrCodeId": code.id, "isResponder": true, "isDependent": false])
            } else {
                _ = try await Self.roles(people, ann, bob, responder: false, dependent: true)
            }
            _ = try await ask()
            let other = remover == ann ? bob : ann
            let removed = try await Self.call(people, "remove-contact", remover, ["contactId": other.user.id.description])
            #expect(removed.status == 200, "\(removed.text)")
            #expect(try await people.test.count("contact_role_requests") == 0, "removal by \(remover.user.id) left a request")
        }
    }

    @Test("an accept racing a cancel: one of them wins, and the pair is whole either way", arguments: Engine.allCases)
    func racingAnswers(engine: Engine) async throws {
        let people = try await Self.linked(engine)
        defer { Task { await people.server.stop() } }
        let (ann, bob) = (people.ann, people.bob)
        for _ in 0..<3 {
            _ = try await Self.roles(people, ann, bob, responder: false, dependent: true)
            let asked = try await Self.roles(people, bob, ann, responder: true, dependent: true)
            let id = try #require((asked.json?["pendingRequest"] as? [String: any Sendable])?["id"] as? String, "\(asked.text)")
            async let accept = Self.call(people, "accept-role-request", ann, ["requestId": id])
            async let cancel = Self.call(people, "cancel-role-request", bob, ["requestId": id])
            let (accepted, cancelled) = try await (accept.status, cancel.status)
            #expect([accepted, cancelled].sorted() == [200, 404], "accept \(accepted), cancel \(cancelled)")
            #expect(try await people.test.count("contact_role_requests") == 0)
            #expect(try await Self.pair(people) == (accepted == 200 ? [true, true, true, true] : [true, false, false, true]))
        }
    }

    @Test(
        "contact_role_requests: either side reads it through /rest/v1 and Realtime, nobody writes it, a stranger sees nothing",
        arguments: Engine.allCases)
    func tableAccess(engine: Engine) async throws {
        let people = try await Self.linked(engine)
        defer { Task { await people.server.stop() } }
        let (ann, bob, dan) = (people.ann, people.bob, people.dan)
        var sockets: [RealtimeTestSocket] = []
        for viewer in [ann, bob, dan] {
            let socket = try await RealtimeTestSocket.connect(people.server, query: "apikey=\(people.server.anonKey)&vsn=1.0.0")
            let joined = try await RealtimeTests.join(socket, topic: "realtime:requests", table: "contact_role_requests", token: viewer.accessToken, ref: "1")
            #expect(joined["status"] as? String == "ok", "\(joined)")
            sockets.append(socket)
        }
        defer { for socket in sockets { Task { await socket.close() } } }
        let asked = try await Self.roles(people, bob, ann, responder: true, dependent: true)
        let requestID = try #require((asked.json?["pendingRequest"] as? [String: any Sendable])?["id"] as? String, "\(asked.text)")

        for viewer in [ann, bob] {
            let rows = try await people.server.request("GET", "/rest/v1/contact_role_requests?select=id,requester_id,owner_id", bearer: viewer.accessToken)
            #expect(rows.status == 200 && rows.jsonArray?.map { $0["id"] as? String } == [requestID], "\(rows.text)")
        }
        let danRows = try await people.server.request("GET", "/rest/v1/contact_role_requests?select=id", bearer: dan.accessToken)
        #expect(danRows.status == 200 && danRows.jsonArray?.isEmpty == true, "\(danRows.text)")
        let anonymous = try await people.server.request("GET", "/rest/v1/contact_role_requests?select=id")
        #expect(anonymous.status == 401 || anonymous.jsonArray?.isEmpty == true, "\(anonymous.status) \(anonymous.text)")
        // No writes through /rest/v1, not even by a party: the functions keep the rules.
        let forged: [String: any Sendable] = [
            "id": UUID().uuidString.lowercased(), "requester_id": dan.user.id.description,
            "owner_id": ann.user.id.description, "created_at": Timestamp.format(people.test.clock.now),
        ]
        let insert = try await people.server.request(
            "POST", "/rest/v1/contact_role_requests", bearer: dan.accessToken,
            body: try JSONSerialization.data(withJSONObject: forged))
        #expect((400..<500).contains(insert.status), "\(insert.status) \(insert.text)")
        for who in [ann, bob] {
            let delete = try await people.server.request("DELETE", "/rest/v1/contact_role_requests?id=eq.\(requestID)", bearer: who.accessToken)
            #expect((400..<500).contains(delete.status), "\(delete.status) \(delete.text)")
            let patch = try await people.server.request(
                "PATCH", "/rest/v1/contact_role_requests?id=eq.\(requestID)", bearer: who.accessToken,
                body: Data(#"{"requester_id":"\#(dan.user.id)"}"#.utf8))
            #expect((400..<500).contains(patch.status), "\(patch.status) \(patch.text)")
        }
        #expect(try await people.test.count("contact_role_requests") == 1)

        // Realtime: the insert and the delete reach Ann and Bob, the delete with its key only.
        let declined = try await Self.call(people, "decline-role-request", ann, ["requestId": requestID])
        #expect(declined.status == 200, "\(declined.text)")
        for socket in sockets.prefix(2) {
            let inserted = try await RealtimeTests.nextChange(socket)
            #expect(inserted.data["type"] as? String == "INSERT", "\(inserted.data)")
            #expect((inserted.data["record"] as? [String: any Sendable])?["id"] as? String == requestID)
            let deleted = try await RealtimeTests.nextChange(socket)
            #expect(deleted.data["type"] as? String == "DELETE", "\(deleted.data)")
            let old = deleted.data["old_record"] as? [String: any Sendable]
            #expect(old.map { Set($0.keys) } == ["id"] && old?["id"] as? String == requestID, "\(deleted.data)")
        }
        // Dan's first change is of his own request, made after those: he heard neither.
        let code = try ContactConsentTests.code(try await Self.call(people, "get-qr-code", ann))
        _ = try await Self.call(people, "add-contact-by-qr", dan, ["qrCodeId": code.id, "isResponder": true, "isDependent": false])
        let danAsked = try await Self.roles(people, dan, ann, responder: true, dependent: true)
        let danRequest = try #require((danAsked.json?["pendingRequest"] as? [String: any Sendable])?["id"] as? String, "\(danAsked.text)")
        let heard = try await RealtimeTests.nextChange(sockets[2])
        #expect((heard.data["record"] as? [String: any Sendable])?["id"] as? String == danRequest, "\(heard.data)")
    }
}
