import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

// Helpers shared by the domain suites (Contacts, Alerts, Pings, Notifications, Profile, Sweep).
extension TestBackend {
    /// Signs a person in through the real OTP flow and gives them a name.
    func person(_ phone: String, _ firstName: String) async throws -> Caller {
        let caller = Caller.user(try await signIn(phone).user.id)
        _ = try await backend.profiles.update(caller: caller, ProfileUpdate(firstName: firstName, lastName: "Tester"))
        return caller
    }

    /// The code `caller`'s screen shows now (`get-qr-code`).
    func qr(_ caller: Caller) async throws -> UUID { try await backend.contacts.qrCode(caller: caller).id }

    /// Makes `responder` a responder of `dependent` (and `dependent` their dependent).
    func link(responder: Caller, dependent: Caller) async throws {
        _ = try await backend.contacts.addContact(caller: dependent, qrCodeID: try await qr(responder), roles: .responder)
    }

    func notifications(_ caller: Caller, _ type: NotificationType? = nil) async throws -> [NotificationRecord] {
        try await backend.notifications.notifications(caller: caller, limit: 1000).filter { type == nil || $0.type == type }
    }

    func contact(_ id: UserID, of caller: Caller) async throws -> ContactSummary? {
        try await backend.contacts.contacts(caller: caller).contacts.first { $0.id == id }
    }

    var pushes: RecordingPushSender? { backend.configuration.pushSender as? RecordingPushSender }

    /// Calls a function by name with a JSON object, as `/functions/v1` does.
    func call(_ name: String, _ caller: Caller, _ body: [String: any Sendable] = [:]) async throws -> [String: Any] {
        let data = try await backend.functions.call(name, caller: caller, body: try JSONSerialization.data(withJSONObject: body))
        return try JSONSerialization.jsonObject(with: data) as? [String: Any] ?? [:]
    }
}

@Suite("Contacts")
struct ContactsTests {
    @Test("adding by QR creates a mirrored pair: my responder sees me as their dependent", arguments: Engine.allCases)
    func addByQR(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let added = try await test.backend.contacts.addContact(caller: ann, qrCodeID: try await test.qr(bob), roles: .responder)
        #expect(added.id == bob.userID)
        #expect(added.name == "Bob Tester")
        #expect(added.roles == .responder)
        #expect(added.lastCheckIn == nil && !added.isNonResponsive)
        let fromBob = try #require(try await test.contact(ann.userID, of: bob))
        #expect(fromBob.roles == .dependent)
        #expect(try await test.count("contacts") == 2)
        let notes = try await test.notifications(bob, .contactAdded)
        #expect(notes.count == 1 && notes.first?.contactID == ann.userID)
    }

    @Test("self-adds, duplicates, unknown codes and empty roles are refused and write nothing", arguments: Engine.allCases)
    func refusals(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        await #expect(throws: DomainError.invalidArgument("You cannot add yourself as a contact")) {
            try await test.backend.contacts.addContact(caller: ann, qrCodeID: try await test.qr(ann), roles: .both)
        }
        await #expect(throws: DomainError.notFound("QR code")) {
            try await test.backend.contacts.addContact(caller: ann, qrCodeID: UUID(), roles: .both)
        }
        #expect(throws: DomainError.self) { try ContactRoles(isResponder: false, isDependent: false) }
        try await test.link(responder: bob, dependent: ann)
        let notificationsBefore = try await test.count("notifications")
        for (caller, other) in [(ann, bob), (bob, ann)] {
            await #expect(throws: DomainError.alreadyExists("Contact \(other.userID)")) {
                try await test.backend.contacts.addContact(caller: caller, qrCodeID: try await test.qr(other), roles: .both)
            }
        }
        #expect(try await test.count("contacts") == 2)
        #expect(try await test.count("notifications") == notificationsBefore)
        // Through the function: malformed ids and empty roles are invalid arguments.
        await #expect(throws: DomainError.invalidArgument("qrCodeId must be a UUID, not \"not-a-uuid\"")) {
            try await test.call("add-contact-by-qr", ann, ["qrCodeId": "not-a-uuid", "isResponder": true, "isDependent": false])
        }
        await #expect(throws: DomainError.self) {
            try await test.call("update-contact-roles", ann, ["contactId": bob.userID.description, "isResponder": false, "isDependent": false])
        }
        #expect(try await test.contact(bob.userID, of: ann)?.roles == .responder)
        await #expect(throws: DomainError.unauthenticated) { try await test.backend.contacts.contacts(caller: .anonymous) }
    }

    @Test("a QR code can be looked up, and reset so the old one stops working", arguments: Engine.allCases)
    func qrCodes(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let old = try await test.qr(bob)
        let reply = try await test.call("lookup-qr-code", ann, ["qrCodeId": old.uuidString])
        #expect(reply["userId"] as? String == bob.userID.description)
        #expect(reply["name"] as? String == "Bob Tester")
        let reset = try await test.call("reset-qr-code", bob)
        let fresh = try #require((reset["qrCodeId"] as? String).flatMap(UUID.init(uuidString:)))
        #expect(fresh != old)
        #expect(try await test.qr(bob) == fresh)
        await #expect(throws: DomainError.notFound("QR code")) { try await test.backend.contacts.lookUpQRCode(caller: ann, qrCodeID: old) }
        await #expect(throws: DomainError.unauthenticated) { try await test.backend.contacts.lookUpQRCode(caller: .anonymous, qrCodeID: fresh) }
    }

    @Test("role changes keep both sides mirrored and cancel pings the new roles forbid", arguments: Engine.allCases)
    func roleChanges(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let carl = try await test.person("+15550000003", "Carl")
        try await test.link(responder: bob, dependent: ann)
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        // Bob stops being Ann's responder and makes her his: both at once (one narrows what
        // he sees, the other opens only his own), so his ping to her ends.
        let updated = try await test.backend.contacts.updateRoles(caller: bob, contact: ann.userID, roles: .responder)
        #expect(updated.roles == .responder)
        #expect(try await test.contact(bob.userID, of: ann)?.roles == .dependent)
        #expect(try await test.contact(ann.userID, of: bob)?.outgoingPingAt == nil)
        #expect(try await test.contact(bob.userID, of: ann)?.incomingPingAt == nil)
        #expect(try await test.notifications(ann, .pingCancelled).count == 1)
        #expect(try await test.notifications(ann, .contactRoleChanged).count == 1)
        await #expect(throws: DomainError.notFound("Contact \(carl.userID)")) {
            try await test.backend.contacts.updateRoles(caller: ann, contact: carl.userID, roles: .both)
        }
        await #expect(throws: DomainError.invalidArgument("contactId must be a UUID, not \"12\"")) {
            try await test.call("update-contact-roles", ann, ["contactId": "12", "isResponder": true, "isDependent": true])
        }
    }

    @Test("removing a contact removes both sides; removing again is not found", arguments: Engine.allCases)
    func removal(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        _ = try await test.call("remove-contact", bob, ["contactId": ann.userID.description])
        #expect(try await test.count("contacts") == 0)
        #expect(try await test.backend.database.query("SELECT status FROM pings").first?.string("status") == "cancelled")
        #expect(try await test.notifications(ann, .contactRemoved).count == 1)
        await #expect(throws: DomainError.notFound("Contact \(ann.userID)")) {
            try await test.backend.contacts.removeContact(caller: bob, contact: ann.userID)
        }
    }

    @Test("get-contacts shows a dependent's check-in, alert and pings, in the seeds' shape", arguments: Engine.allCases)
    func dependentStatus(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        try await test.link(responder: bob, dependent: ann)
        let checkIn = try await test.backend.checkIns.checkIn(caller: ann)
        var seen = try #require(try await test.contact(ann.userID, of: bob))
        #expect(seen.lastCheckIn == checkIn.checkedInAt && seen.deadline == checkIn.deadline && !seen.isNonResponsive)
        // Bob is Ann's responder, so Ann does not see Bob's check-in state.
        #expect(try await test.contact(bob.userID, of: ann)?.deadline == nil)
        test.clock.advance(by: 24 * 3600 + 1)
        _ = try await test.backend.alerts.trigger(caller: ann)
        try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        seen = try #require(try await test.contact(ann.userID, of: bob))
        #expect(seen.isNonResponsive && seen.activeAlertID != nil && seen.outgoingPingAt == test.clock.now)
        #expect(try await test.contact(bob.userID, of: ann)?.incomingPingAt == test.clock.now)
        let reply = try await test.call("get-contacts", bob)
        let contacts = try #require(reply["contacts"] as? [[String: Any]])
        #expect(contacts.count == 1)
        let first = try #require(contacts.first)
        #expect(first["id"] as? String == ann.userID.description)
        #expect(first["roles"] as? [String] == ["dependent"])
        #expect(first["status"] as? String == "active")
        #expect(first["isNonResponsive"] as? Bool == true && first["hasActiveAlert"] as? Bool == true)
        #expect(first["hasOutgoingPing"] as? Bool == true)
        #expect(first["checkInDeadline"] as? String == Timestamp.format(checkIn.deadline))
    }

    @Test("racing reciprocal adds create exactly one whole pair", arguments: Engine.allCases)
    func racingAdds(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let (annQR, bobQR) = (try await test.qr(ann), try await test.qr(bob))
        let successes = await withTaskGroup(of: Bool.self) { group in
            for index in 0..<8 {
                group.addTask {
                    let (caller, code) = index.isMultiple(of: 2) ? (ann, bobQR) : (bob, annQR)
                    return (try? await test.backend.contacts.addContact(caller: caller, qrCodeID: code, roles: .both)) != nil
                }
            }
            return await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(successes == 1)
        #expect(try await test.count("contacts") == 2)
        // Role changes racing a removal: whichever wins, never half a pair.
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<6 {
                group.addTask {
                    if index == 3 {
                        try? await test.backend.contacts.removeContact(caller: bob, contact: ann.userID)
                    } else {
                        _ = try? await test.backend.contacts.updateRoles(
                            caller: index.isMultiple(of: 2) ? ann : bob, contact: index.isMultiple(of: 2) ? bob.userID : ann.userID,
                            roles: index.isMultiple(of: 4) ? .responder : .dependent)
                    }
                }
            }
        }
        #expect(try await test.count("contacts") == 0)
        #expect(try await test.count("contact_role_requests") == 0, "a request outlived the relation")
        let halves = try await test.backend.database.query(
            """
            SELECT count(*) AS n FROM contacts c WHERE NOT EXISTS (SELECT 1 FROM contacts r WHERE r.user_id = c.contact_id
              AND r.contact_id = c.user_id AND r.is_responder = c.is_dependent AND r.is_dependent = c.is_responder)
            """
        ).first?.int("n")
        #expect(halves == 0)
    }
}

@Suite("Contact invitations")
struct InvitationTests {
    @Test("an invitation waits for the phone's owner, who accepts it into a mirrored pair", arguments: Engine.allCases)
    func acceptFlow(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let reply = try await test.call("invite-contact", ann, ["phone": "+1 555 000 0002", "roles": ["responder"]])
        let invitationID = try #require(reply["invitationId"] as? String)
        #expect(reply["sentAt"] as? String == Timestamp.format(test.clock.now))
        #expect(try await test.backend.contacts.contacts(caller: ann).sentInvitations.map(\.inviteePhone) == ["+15550000002"])
        // Bob signs up afterwards and finds the invitation.
        let bob = try await test.person("+15550000002", "Bob")
        let received = try await test.backend.contacts.contacts(caller: bob).receivedInvitations
        #expect(received.map { $0.id.uuidString.lowercased() } == [invitationID] && received.first?.roles == .responder)
        // Someone else cannot take it.
        let eve = try await test.person("+15550000009", "Eve")
        await #expect(throws: DomainError.forbidden("This invitation was sent to another phone number")) {
            try await test.call("accept-invitation", eve, ["invitationId": invitationID])
        }
        let accepted = try await test.call("accept-invitation", bob, ["invitationId": invitationID])
        let contact = try #require(accepted["contact"] as? [String: Any])
        #expect(contact["id"] as? String == ann.userID.description && contact["roles"] as? [String] == ["dependent"])
        #expect(try await test.contact(bob.userID, of: ann)?.roles == .responder)
        #expect(try await test.notifications(ann, .contactAdded).count == 1)
        await #expect(throws: DomainError.failedPrecondition("The invitation was already accepted")) {
            try await test.call("accept-invitation", bob, ["invitationId": invitationID])
        }
        // Now they are contacts, a new invitation is a duplicate.
        await #expect(throws: DomainError.alreadyExists("Contact +15550000002")) {
            try await test.backend.contacts.invite(caller: ann, phone: "+15550000002", roles: .both)
        }
    }

    @Test("declining, duplicates, self-invites and bad input", arguments: Engine.allCases)
    func refusals(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let invitation = try await test.backend.contacts.invite(caller: ann, phone: "+15550000002", roles: .both)
        #expect(try await test.notifications(bob, .system).count == 1)
        await #expect(throws: DomainError.alreadyExists("A pending invitation to +15550000002")) {
            try await test.backend.contacts.invite(caller: ann, phone: "+15550000002", roles: .responder)
        }
        await #expect(throws: DomainError.invalidArgument("You cannot invite yourself")) {
            try await test.backend.contacts.invite(caller: ann, phone: "+15550000001", roles: .responder)
        }
        await #expect(throws: DomainError.invalidPhone("12")) { try await test.backend.contacts.invite(caller: ann, phone: "12", roles: .both) }
        await #expect(throws: DomainError.invalidArgument("Unknown contact role \"boss\"; use \"responder\" or \"dependent\"")) {
            try await test.call("invite-contact", ann, ["phone": "+15550000003", "roles": ["boss"]])
        }
        await #expect(throws: DomainError.self) { try await test.call("invite-contact", ann, ["phone": "+15550000003", "roles": [String]()]) }
        let unknown = UUID()
        await #expect(throws: DomainError.notFound("Invitation \(unknown)")) {
            try await test.backend.contacts.acceptInvitation(caller: bob, invitationID: unknown)
        }
        _ = try await test.call("decline-invitation", bob, ["invitationId": invitation.id.uuidString])
        await #expect(throws: DomainError.failedPrecondition("The invitation was already declined")) {
            try await test.backend.contacts.acceptInvitation(caller: bob, invitationID: invitation.id)
        }
        #expect(try await test.count("contacts") == 0)
        #expect(try await test.count("contact_invitations") == 1)
        // Declined, it no longer blocks a new invitation.
        _ = try await test.backend.contacts.invite(caller: ann, phone: "+15550000002", roles: .responder)
    }
}
