import Foundation
import LifeSignalBackend
import LifeSignalDomain
import LifeSignalFunctions
import LifeSignalTestSupport
import Testing

/// The original app's documents (`users/{uid}`, its `contacts`, `qr_lookup`), projected by
/// ``DocumentService`` from the tables, with their rules, on both engines.
@Suite("Projected documents")
struct ProjectedDocumentsTests {
    static func user(_ caller: Caller) throws -> DocumentPath { try DocumentPath("users/\(caller.userID)") }

    @Test("users/<me> is my profile in the original field names", arguments: Engine.allCases)
    func profileProjection(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        _ = try await test.backend.profiles.update(caller: ann, ProfileUpdate(emergencyNote: "Asthma", avatarURL: "https://x.test/a.png"))
        _ = try await test.backend.profiles.updateCheckInSettings(caller: ann, interval: try .hours(12), reminderLead: .twoHours)
        let checkIn = try await test.backend.checkIns.checkIn(caller: ann)
        let alert = try await test.backend.alerts.trigger(caller: ann)
        let profile = try await test.backend.profiles.profile(caller: ann)

        let document = try await test.backend.documents.get(caller: ann, path: try Self.user(ann))
        let when = { (date: Date) in DocumentValue.timestamp(DocumentTimestamp.truncated(date)) }
        #expect(document.exists && document.createTime != nil && document.updateTime != nil)
        let expected: [String: DocumentValue] = [
            "uid": .string(ann.userID.description), "name": "Ann Tester", "firstName": "Ann", "lastName": "Tester",
            "phoneNumber": "+15550000001", "phoneRegion": "US", "emergencyNote": "Asthma", "note": "Asthma",
            "qrCodeId": .string(profile.qrCodeID.uuidString.lowercased()), "checkInInterval": 43_200,
            "lastCheckedIn": when(checkIn.checkedInAt), "expirationTimestamp": when(checkIn.deadline),
            "notify30MinBefore": false, "notify2HoursBefore": true, "notificationEnabled": true,
            "manualAlertActive": true, "manualAlertTimestamp": when(alert.activatedAt),
            "profileImageURL": "https://x.test/a.png", "profileComplete": true,
            "createdAt": try #require(document.data["createdAt"]), "lastUpdated": try #require(document.data["lastUpdated"]),
        ]
        #expect(document.data == expected)
        #expect(try await test.count("documents") == 0, "a projection is never stored")
    }

    @Test("an owner's update of whitelisted fields goes through the profile's rules; anything else changes nothing", arguments: Engine.allCases)
    func profileWrites(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let documents = test.backend.documents
        let path = try Self.user(ann)

        let updated = try await documents.update(
            caller: ann, path: path,
            fields: [
                "firstName": "Annie", "note": "Diabetic", "notify2HoursBefore": true, "checkInInterval": 28_800,
                "notificationEnabled": false, "profileImageURL": "https://x.test/p.png",
            ])
        let profile = try await test.backend.profiles.profile(caller: ann)
        #expect(profile.firstName == "Annie" && profile.emergencyNote == "Diabetic" && profile.reminderLead == .twoHours)
        #expect(profile.checkInIntervalSeconds == 28_800 && !profile.notificationsEnabled && profile.avatarURL == "https://x.test/p.png")
        #expect(updated.data["emergencyNote"] == "Diabetic" && updated.data["notify30MinBefore"] == false)
        _ = try await documents.set(caller: ann, path: path, data: ["name": "Ann Lee", "notify2HoursBefore": false, "profileImageURL": nil], merge: true)
        let merged = try await test.backend.profiles.profile(caller: ann)
        #expect(merged.firstName == "Ann" && merged.lastName == "Lee" && merged.reminderLead == .none && merged.avatarURL == nil)

        let refused: [(String, [String: DocumentValue])] = [
            ("qrCodeId", ["qrCodeId": "00000000-0000-0000-0000-000000000000", "firstName": "Zed"]),
            ("lastCheckedIn", ["lastCheckedIn": .timestamp(Date()), "note": "x"]),
            ("manualAlertActive", ["manualAlertActive": false]), ("uid", ["uid": "someone"]), ("name.first", ["name.first": "Zed"]),
        ]
        for (field, fields) in refused {
            await #expect(
                throws: DomainError.forbidden(
                    "\(field) of \(path) is kept by LifeSignal and cannot be written; an owner may change only checkInInterval, emergencyNote, "
                        + "firstName, lastName, name, note, notificationEnabled, notify2HoursBefore, notify30MinBefore, phoneNumber, profileImageURL")
            ) { try await documents.update(caller: ann, path: path, fields: fields) }
        }
        await #expect(throws: DomainError.forbidden("\(path) cannot be replaced or deleted: update or merge the fields an owner may change")) {
            try await documents.set(caller: ann, path: path, data: ["firstName": "Zed"])
        }
        await #expect(throws: DomainError.self) { try await documents.delete(caller: ann, path: path) }
        await #expect(throws: DomainError.self) { try await documents.update(caller: bob, path: path, fields: ["firstName": "Zed"]) }
        // Values go through the profile's own checks; a write failing one changes nothing.
        await #expect(throws: DomainError.invalidArgument("First name must be 2 to 50 characters, not 1")) {
            try await documents.update(caller: ann, path: path, fields: ["firstName": "Z"])
        }
        await #expect(throws: DomainError.invalidArgument("The reminder must come less than one interval before the deadline")) {
            try await documents.update(caller: ann, path: path, fields: ["firstName": "Zed", "checkInInterval": 3600, "notify2HoursBefore": true])
        }
        await #expect(throws: DomainError.self) { try await documents.update(caller: ann, path: path, fields: ["checkInInterval": 60]) }
        await #expect(throws: DomainError.self) { try await documents.update(caller: ann, path: path, fields: ["checkInInterval": "3600"]) }
        await #expect(throws: DomainError.self) { try await documents.update(caller: ann, path: path, fields: ["phoneNumber": "nope", "firstName": "Zed"]) }
        #expect(try await test.backend.profiles.profile(caller: ann) == merged)
        #expect(try await test.count("documents") == 0)
    }

    @Test("a contact reads what the contact list shows of users/<them>; a stranger reads nothing", arguments: Engine.allCases)
    func contactReadsProfile(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let eve = try await test.person("+15550000003", "Eve")
        try await test.link(responder: bob, dependent: ann)
        _ = try await test.backend.checkIns.checkIn(caller: ann)
        let documents = test.backend.documents

        // Bob is Ann's responder: he sees her check-in, never her code or settings.
        let annSeen = try await documents.get(caller: bob, path: try Self.user(ann)).data
        let annContact = try #require(try await test.contact(ann.userID, of: bob))
        #expect(
            Set(annSeen.keys) == [
                "uid", "name", "phoneNumber", "emergencyNote", "note", "profileImageURL", "lastCheckedIn",
                "expirationTimestamp", "checkInInterval", "manualAlertActive", "manualAlertTimestamp",
            ])
        #expect(annSeen["lastCheckedIn"] == .timestamp(DocumentTimestamp.truncated(try #require(annContact.lastCheckIn))))
        // Ann is Bob's dependent only: she sees who he is, not his check-in.
        let bobSeen = try await documents.get(caller: ann, path: try Self.user(bob)).data
        #expect(Set(bobSeen.keys) == ["uid", "name", "phoneNumber", "emergencyNote", "note", "profileImageURL"])
        await #expect(throws: DomainError.self) { _ = try await documents.get(caller: eve, path: try Self.user(ann)) }
        await #expect(throws: DomainError.self) { _ = try await documents.get(caller: eve, path: try DocumentPath("users/not-a-user")) }
        await #expect(throws: DomainError.unauthenticated) { _ = try await documents.get(caller: .anonymous, path: try Self.user(ann)) }
        #expect(try await documents.get(caller: .service, path: try Self.user(ann)).data["qrCodeId"] != nil)
    }

    @Test("users/<me>/contacts: one read-only document per relation, queried as any collection, mine only", arguments: Engine.allCases)
    func contactsCollection(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let cat = try await test.person("+15550000004", "Cat")
        try await test.link(responder: bob, dependent: ann)
        try await test.link(responder: ann, dependent: cat)
        _ = try await test.backend.pings.ping(caller: bob, dependent: ann.userID)
        let documents = test.backend.documents
        let contacts = try CollectionPath("users/\(ann.userID)/contacts")

        let all = try await documents.query(caller: ann, DocumentQuery(contacts))
        #expect(Set(all.map(\.id)) == [bob.userID.description, cat.userID.description])
        let bobDocument = try #require(all.first { $0.id == bob.userID.description })
        #expect(bobDocument.data["isResponder"] == true && bobDocument.data["isDependent"] == false && bobDocument.data["name"] == "Bob Tester")
        #expect(bobDocument.data["hasIncomingPing"] == true && bobDocument.data["incomingPingTimestamp"] != .null)
        #expect(bobDocument.data["lastCheckedIn"] == .null, "a responder's check-in is not mine to see")
        let dependents = try await documents.query(caller: ann, DocumentQuery(contacts).where("isDependent", .equal, true))
        #expect(dependents.map(\.id) == [cat.userID.description])
        #expect(try await documents.get(caller: ann, path: bobDocument.path) == bobDocument)
        #expect(try await documents.get(caller: ann, path: try contacts.document("nobody")).exists == false)

        await #expect(throws: DomainError.self) { _ = try await documents.query(caller: bob, DocumentQuery(contacts)) }
        await #expect(throws: DomainError.self) { _ = try await documents.get(caller: bob, path: bobDocument.path) }
        for write in [
            { try await documents.set(caller: ann, path: bobDocument.path, data: ["isDependent": true]) },
            { try await documents.set(caller: ann, path: try contacts.document("new"), data: ["name": "X"], merge: true) },
            { try await documents.update(caller: ann, path: bobDocument.path, fields: ["isDependent": true]) },
            { try await documents.delete(caller: ann, path: bobDocument.path) },
        ] as [@Sendable () async throws -> Void] {
            await #expect(throws: DomainError.self) { try await write() }
        }
        #expect(try await test.backend.contacts.contacts(caller: ann).contacts.count == 2)
        #expect(try await test.count("documents") == 0)
    }

    @Test("qr_lookup: a code's owner by an equality query; no listing, no one else's document, no writes", arguments: Engine.allCases)
    func qrLookup(engine: Engine) async throws {
        let test = try await TestDatabases.backend(engine)
        defer { Task { try? await test.backend.close() } }
        let ann = try await test.person("+15550000001", "Ann")
        let bob = try await test.person("+15550000002", "Bob")
        let documents = test.backend.documents
        let lookup = try CollectionPath("qr_lookup")
        let code = try await test.qr(ann).uuidString.lowercased()

        let found = try await documents.query(caller: bob, DocumentQuery(lookup).where("qrCodeId", .equal, .string(code)).limit(1))
        #expect(found.map(\.path.rawValue) == ["qr_lookup/\(ann.userID)"])
        #expect(found.first?.data == ["uid": .string(ann.userID.description), "qrCodeId": .string(code), "name": "Ann Tester"])
        // The original app wrote codes as `UUID().uuidString`, upper case: the same code.
        let upper = try await documents.query(caller: bob, DocumentQuery(lookup).where("qrCodeId", .equal, .string(code.uppercased())).limit(1))
        #expect(upper.map(\.path.rawValue) == ["qr_lookup/\(ann.userID)"])
        #expect(try await documents.query(caller: bob, DocumentQuery(lookup).where("qrCodeId", .equal, .string(UUID().uuidString))).isEmpty)
        #expect(try await documents.query(caller: bob, DocumentQuery(lookup).where("qrCodeId", .equal, "not a code")).isEmpty)
        let listing = DomainError.forbidden("qr_lookup cannot be listed: query it with qrCodeId == <code> to find that code's owner")
        await #expect(throws: listing) { _ = try await documents.query(caller: bob, DocumentQuery(lookup)) }
        await #expect(throws: listing) { _ = try await documents.query(caller: bob, DocumentQuery(lookup).where("qrCodeId", .greaterThan, "")) }
        await #expect(throws: listing) { _ = try await documents.query(caller: bob, DocumentQuery(lookup).where("name", .equal, "Ann Tester")) }
        await #expect(throws: DomainError.unauthenticated) {
            _ = try await documents.query(caller: .anonymous, DocumentQuery(lookup).where("qrCodeId", .equal, .string(code)))
        }

        let annLookup = try lookup.document(ann.userID.description)
        #expect(try await documents.get(caller: ann, path: annLookup).data["qrCodeId"] == .string(code))
        await #expect(throws: DomainError.self) { _ = try await documents.get(caller: bob, path: annLookup) }
        await #expect(throws: DomainError.self) { try await documents.set(caller: ann, path: annLookup, data: ["qrCodeId": "mine"]) }
        await #expect(throws: DomainError.self) { try await documents.update(caller: ann, path: annLookup, fields: ["qrCodeId": "mine"]) }
        await #expect(throws: DomainError.self) { try await documents.delete(caller: ann, path: annLookup) }
        #expect(try await test.qr(ann).uuidString.lowercased() == code)
        // A reset code stops finding anyone at once.
        _ = try await test.backend.contacts.resetQRCode(caller: ann)
        #expect(try await documents.query(caller: bob, DocumentQuery(lookup).where("qrCodeId", .equal, .string(code))).isEmpty)
        // An expired code finds nobody either, as lookup-qr-code does not.
        let shown = try await test.qr(ann).uuidString.lowercased()
        #expect(try await documents.query(caller: bob, DocumentQuery(lookup).where("qrCodeId", .equal, .string(shown))).count == 1)
        test.clock.advance(by: QRCodes.defaultLifetime + 1)
        #expect(try await documents.query(caller: bob, DocumentQuery(lookup).where("qrCodeId", .equal, .string(shown))).isEmpty)
    }
}
